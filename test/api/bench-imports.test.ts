/**
 * `npm run bench` runs the benchmarks against the built packages, outside vitest: a module they
 * import from a package's `dist` that no longer exists in its sources would only show when someone
 * benchmarks. Every relative import of test/bench resolves to a file, with `dist/*.js` read as the
 * `src/*.ts` it is built from (`dist/bundle.js` as `src/index.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BENCH = join(ROOT, 'test', 'bench');

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'data' ? [] : scripts(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });
}

/** Where a relative specifier of `file` points, with a package's built file mapped to its source (its bundle to its entry). */
function source(file: string, specifier: string): string {
  const target = join(dirname(file), specifier).replace(/([/\\]dist[/\\])bundle\.js$/, '$1index.js');
  return target.replace(/([/\\]packages[/\\][a-z]+[/\\])dist([/\\].*)\.js$/, '$1src$2.ts');
}

describe('the benchmarks import only what exists', () => {
  for (const file of scripts(BENCH)) {
    it(relative(ROOT, file), () => {
      const text = readFileSync(file, 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] as string);
      const missing = specifiers.filter((specifier) => !existsSync(source(file, specifier)));
      expect(missing, `imports of ${relative(ROOT, file)} that resolve to no file`).toEqual([]);
    });
  }
});
