/**
 * The option tables of the docs are written from code (test/crawlee/option-tables.ts): the rows of
 * `packages/crawlee/src/options-docs.ts` say what each option does, the option tables of code
 * (`defineOptions`) give the defaults. Here, each table in the docs is what the code writes
 * (`npm run docs` rewrites them), every option of the plugin, of `sitemaps` and of `records` has
 * its row, and the `@default` of each option's TSDoc, which editors show, is its default.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLUGIN_OPTIONS, SITEMAP_OPTIONS } from '../../packages/crawlee/src/options.js';
import {
  PLUGIN_OPTION_ROWS,
  README_OPTION_ROWS,
  RECORDS_OPTION_ROWS,
  SITEMAP_OPTION_ROWS,
} from '../../packages/crawlee/src/options-docs.js';
import { RECORDS_OPTIONS } from '../../packages/crawlee/src/records/records-options.js';
import { MANAGER_OPTIONS } from '../../packages/manager/src/options.js';
import {
  MANAGER_OPTION_ROWS,
  MANAGER_README_OPTION_ROWS,
  MEMORY_STORE_OPTION_ROWS,
  REDIS_STORE_OPTION_ROWS,
} from '../../packages/manager/src/options-docs.js';
import { MEMORY_STORE_OPTIONS } from '../../packages/manager/src/cache/memory.js';
import { REDIS_STORE_OPTIONS } from '../../packages/manager/src/cache/redis.js';
import { PARSE_OPTION_ROWS, PARSE_README_OPTION_ROWS } from '../../packages/parser/src/options-docs.js';
import { PARSE_OPTIONS } from '../../packages/parser/src/robots-txt.js';
import { writeSection } from '../faults/fault-table.js';
import { literalDefault, markersOf, renderOptionTable, sectionOf, type OptionsDefinition, type OptionTable } from './option-tables.js';

const path = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
const read = (file: string) => readFileSync(path(file), 'utf8');
const REFERENCE = 'packages/crawlee/docs/reference.md';

const TABLES: readonly OptionTable[] = [
  { file: REFERENCE, name: 'plugin', header: 'option', rows: PLUGIN_OPTION_ROWS, definition: PLUGIN_OPTIONS, complete: true },
  { file: REFERENCE, name: 'sitemaps', header: 'option', rows: SITEMAP_OPTION_ROWS, definition: SITEMAP_OPTIONS, complete: true },
  { file: REFERENCE, name: 'records', header: '`records` field', rows: RECORDS_OPTION_ROWS, definition: RECORDS_OPTIONS, complete: true },
  {
    file: 'packages/crawlee/README.md',
    name: 'readme',
    header: 'option',
    rows: README_OPTION_ROWS,
    defaultsFrom: PLUGIN_OPTION_ROWS,
    definition: PLUGIN_OPTIONS,
    complete: false,
  },
  {
    file: 'packages/manager/docs/reference.md',
    name: 'manager',
    header: 'option',
    rows: MANAGER_OPTION_ROWS,
    definition: MANAGER_OPTIONS,
    complete: true,
  },
  {
    file: 'packages/manager/README.md',
    name: 'manager-readme',
    header: 'option',
    rows: MANAGER_README_OPTION_ROWS,
    defaultsFrom: MANAGER_OPTION_ROWS,
    definition: MANAGER_OPTIONS,
    complete: false,
  },
  {
    file: 'packages/manager/docs/reference.md',
    name: 'memory-store',
    header: '`MemoryStore` option',
    rows: MEMORY_STORE_OPTION_ROWS,
    definition: MEMORY_STORE_OPTIONS,
    complete: true,
  },
  {
    file: 'packages/manager/docs/reference.md',
    name: 'redis-store',
    header: '`RedisStore` option',
    rows: REDIS_STORE_OPTION_ROWS,
    definition: REDIS_STORE_OPTIONS,
    complete: true,
  },
  {
    file: 'packages/parser/docs/reference.md',
    name: 'parse',
    header: 'option',
    rows: PARSE_OPTION_ROWS,
    definition: PARSE_OPTIONS,
    complete: true,
  },
  {
    file: 'packages/parser/README.md',
    name: 'parse-readme',
    header: 'option',
    rows: PARSE_README_OPTION_ROWS,
    defaultsFrom: PARSE_OPTION_ROWS,
    definition: PARSE_OPTIONS,
    complete: false,
  },
];

/** A default a table gives as a literal (`true`, `60`, `65_536`, `'summary'`), read back; `undefined` when it is prose. */
function literalOf(cell: string): { value: unknown } | undefined {
  const match = /^`([^`]+)`$/.exec(cell);
  if (match === null) return undefined;
  const text = match[1]!;
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (/^\d[\d_]*(\.\d+)?$/.test(text)) return { value: Number(text.replaceAll('_', '')) };
  if (/^'[^']*'$/.test(text)) return { value: text.slice(1, -1) };
  return undefined;
}

describe("the docs' option tables", () => {
  it.each(TABLES.map((table) => [`${table.file}, ${table.name}`, table] as const))(
    '%s: written from the code (npm run docs rewrites it)',
    (_where, table) => {
      const generated = renderOptionTable(table);
      if (process.env.HEED_WRITE_DOCS === '1') {
        writeSection(path(table.file), generated, markersOf(table.name));
        return;
      }
      expect(sectionOf(read(table.file), table.name), `${table.file} is stale: run \`npm run docs\``).toBe(generated);
    },
  );

  it.each(TABLES.map((table) => [`${table.file}, ${table.name}`, table] as const))(
    "%s: a row for every option (the README's a few), each once, of options the code declares",
    (_where, table) => {
      const named = table.rows.flatMap((row) => row.options);
      expect(
        named.filter((name) => !table.definition.knownKeys.includes(name)),
        'options no code declares',
      ).toEqual([]);
      expect(
        named.filter((name, i) => named.indexOf(name) !== i),
        'options with two rows',
      ).toEqual([]);
      if (table.complete)
        expect(
          table.definition.knownKeys.filter((name) => !named.includes(name)),
          'options left out',
        ).toEqual([]);
    },
  );

  it.each(TABLES.map((table) => [`${table.file}, ${table.name}`, table] as const))(
    "%s: a row words its default only where the code's is no literal",
    (_where, table) => {
      const definition: OptionsDefinition = table.definition;
      for (const row of table.rows.filter((r) => r.default !== undefined)) {
        const [name] = row.options;
        expect(literalDefault(definition.defaults[name!]), `${name}: the code's default is written from the code`).toBeUndefined();
        expect(literalOf(row.default!), `${name}: a literal default in words`).toBeUndefined();
      }
    },
  );

  it("each option's TSDoc @default is its default", () => {
    // Each file with the option tables it declares (a name such as `maxBytes` is an option of two).
    const files: readonly [string, readonly OptionsDefinition[]][] = [
      ['packages/crawlee/src/options.ts', [PLUGIN_OPTIONS, SITEMAP_OPTIONS]],
      ['packages/crawlee/src/records/records-options.ts', [RECORDS_OPTIONS]],
      ['packages/manager/src/options.ts', [MANAGER_OPTIONS]],
      ['packages/manager/src/cache/memory.ts', [MEMORY_STORE_OPTIONS]],
      ['packages/manager/src/cache/redis.ts', [REDIS_STORE_OPTIONS]],
      ['packages/parser/src/robots-txt.ts', [PARSE_OPTIONS]],
    ];
    const checked: string[] = [];
    for (const [path, definitions] of files) {
      for (const [, said, name] of read(path).matchAll(/@default ([^\n]*)\n(?:\s*\*[^\n]*\n)*?\s*\*\/\n\s*(\w+):/g)) {
        const literal = literalOf(/^`[^`]+`/.exec(said!)?.[0] ?? '');
        if (literal === undefined) continue;
        const owners = definitions.filter((definition) => definition.knownKeys.includes(name!));
        expect(owners.length, `${path}: ${name} is declared once`).toBe(1);
        expect(owners[0]!.defaults[name!], `${path}: the @default of ${name}`).toStrictEqual(literal.value);
        checked.push(name!);
      }
    }
    // The literals of these files: enough that a broken pattern cannot pass by reading none.
    expect(checked.length).toBeGreaterThanOrEqual(45);
  });
});
