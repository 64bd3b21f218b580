/**
 * One figure per measure, wherever it is quoted: every figure with a unit (`1.045×`, `1.78%`,
 * `0.042 ms`, `14,535 B`) that the root README and docs/comparison.md quote is in BENCHMARKS.md,
 * where each measure has its current figure and the command that reproduces it. A figure measured
 * again is then changed in one place, and a quote left behind fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const FIGURE = /\b\d[\d,]*(?:\.\d+)?(?:×| ?%| µs| ms| s| B| MiB| KB)(?!\w)/g;

describe('figures quoted outside BENCHMARKS.md', () => {
  const benchmarks = read('BENCHMARKS.md');

  it.each(['README.md', 'docs/comparison.md'])('%s quotes only figures BENCHMARKS.md gives', (path) => {
    const figures = [...new Set([...read(path).matchAll(FIGURE)].map((match) => match[0]))];
    // Enough that a broken pattern cannot pass by finding none.
    expect(figures.length).toBeGreaterThan(3);
    expect(figures.filter((figure) => !benchmarks.includes(figure))).toEqual([]);
  });
});
