/**
 * The option tables of the docs say what the code does: each option a table names exists, each
 * option of the plugin, of `sitemaps` and of `records` is in the reference's tables, and a default
 * a table gives as a literal (`true`, `60`, `'summary'`, `65_536`) is the code's default; so is the
 * `@default` of each option's TSDoc, which editors show. The
 * options are declared once, in `defineOptions` tables; the docs are prose around them, and this
 * keeps the two from drifting apart.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLUGIN_OPTIONS, SITEMAP_OPTIONS } from '../../packages/crawlee/src/options.js';
import { RECORDS_OPTIONS } from '../../packages/crawlee/src/records/records-options.js';

interface Definition {
  readonly knownKeys: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
}
interface Row {
  readonly names: string[];
  readonly defaultCell: string;
}

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

/** The rows of the first table after `heading` (a line of the file that starts with it). */
function tableAfter(text: string, heading: string): Row[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  expect(start, `"${heading}" in the docs`).toBeGreaterThanOrEqual(0);
  // The heading may be the table's own header row.
  const first = heading.startsWith('|') ? start : lines.findIndex((line, i) => i > start && line.startsWith('|'));
  const rows: Row[] = [];
  for (let i = first + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const cells = lines[i]!.split(/(?<!\\)\|/).map((cell) => cell.trim());
    rows.push({ names: [...cells[1]!.matchAll(/`([a-zA-Z]+)`/g)].map((m) => m[1]!), defaultCell: cells[2]! });
  }
  return rows;
}

/** A default cell's literal value (`true`, `60`, `65_536`, `'summary'`), or `undefined` when it is prose. */
function literalOf(cell: string): { value: unknown } | undefined {
  const match = /^`([^`]+)`$/.exec(cell);
  if (match === null) return undefined;
  const text = match[1]!;
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (/^\d[\d_]*(\.\d+)?$/.test(text)) return { value: Number(text.replaceAll('_', '')) };
  if (/^'[^']*'$/.test(text)) return { value: text.slice(1, -1) };
  return undefined;
}

function expectAgrees(rows: Row[], definition: Definition, where: string, complete: boolean): void {
  const documented = rows.flatMap((row) => row.names);
  expect(
    documented.filter((name) => !definition.knownKeys.includes(name)),
    `${where}: options no code declares`,
  ).toEqual([]);
  if (complete)
    expect(
      definition.knownKeys.filter((name) => !documented.includes(name)),
      `${where}: options left out`,
    ).toEqual([]);
  for (const row of rows) {
    const literal = literalOf(row.defaultCell);
    if (literal === undefined) continue;
    for (const name of row.names) expect(definition.defaults[name], `${where}: the default of ${name}`).toStrictEqual(literal.value);
  }
}

describe("the docs' option tables", () => {
  const reference = read('packages/crawlee/docs/reference.md');

  it("the reference's table of attach() options is the plugin's options, with their defaults", () => {
    expectAgrees(tableAfter(reference, '## Options'), PLUGIN_OPTIONS, 'reference, Options', true);
  });

  it("the reference's table of sitemaps options is the sitemaps options, with their defaults", () => {
    expectAgrees(tableAfter(reference, '`sitemaps` options:'), SITEMAP_OPTIONS, 'reference, sitemaps options', true);
  });

  it("the reference's table of records fields is the records options, with their defaults", () => {
    expectAgrees(tableAfter(reference, '| `records` field'), RECORDS_OPTIONS, 'reference, records fields', true);
  });

  it("the package README's table names options that exist, with their defaults", () => {
    expectAgrees(tableAfter(read('packages/crawlee/README.md'), '| option | default | what |'), PLUGIN_OPTIONS, 'crawlee README', false);
  });

  it("each option's TSDoc @default is its default", () => {
    const definitions: Definition[] = [PLUGIN_OPTIONS, SITEMAP_OPTIONS, RECORDS_OPTIONS];
    const checked: string[] = [];
    for (const path of ['packages/crawlee/src/options.ts', 'packages/crawlee/src/records/records-options.ts']) {
      for (const [, said, name] of read(path).matchAll(/@default ([^\n]*)\n(?:\s*\*[^\n]*\n)*?\s*\*\/\n\s*(\w+):/g)) {
        const literal = literalOf(/^`[^`]+`/.exec(said!)?.[0] ?? '');
        if (literal === undefined) continue;
        const owners = definitions.filter((definition) => definition.knownKeys.includes(name!));
        expect(owners.length, `${path}: ${name} is declared once`).toBe(1);
        expect(owners[0]!.defaults[name!], `${path}: the @default of ${name}`).toStrictEqual(literal.value);
        checked.push(name!);
      }
    }
    // The literals of both files: enough that a broken pattern cannot pass by reading none.
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
