/**
 * The docs' option tables, written from code: the rows of `packages/crawlee/src/options-docs.ts`
 * and `packages/manager/src/options-docs.ts` (what each option does) and the defaults of the option
 * tables (`PLUGIN_OPTIONS`, `SITEMAP_OPTIONS`, `RECORDS_OPTIONS`, `MANAGER_OPTIONS`). Each table sits between markers of its own in the
 * reference or the README; `npm run docs` rewrites them, test/crawlee/options-docs.test.ts checks
 * them.
 */
import type { OptionRow } from '../../packages/crawlee/src/options-docs.js';

/** An option table of code: its options and their defaults. */
export interface OptionsDefinition {
  readonly knownKeys: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
}

/** One generated table: where it goes, what it is made of. */
export interface OptionTable {
  /** The file, from the repository's root. */
  readonly file: string;
  /** The name in its markers: `<!-- options:NAME:start -->`. */
  readonly name: string;
  /** The header's first cell: `option`, `` `records` field ``. */
  readonly header: string;
  readonly rows: readonly OptionRow[];
  readonly definition: OptionsDefinition;
  /** Whether every option of the definition must have a row (the README's table names a few). */
  readonly complete: boolean;
  /** The rows whose worded defaults a row of this table takes when it words none (the README's: the reference's). */
  readonly defaultsFrom?: readonly OptionRow[];
}

export const markersOf = (name: string) => ({ start: `<!-- options:${name}:start -->`, end: `<!-- options:${name}:end -->` });

/** The default as the code gives it, written as a literal (`true`, `60`, `10_000`, `'summary'`), when it is one. */
export function literalDefault(value: unknown): string | undefined {
  if (typeof value === 'boolean') return `\`${value}\``;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const digits = Number.isInteger(value) && value >= 1000 ? String(value).replace(/\B(?=(\d{3})+$)/g, '_') : String(value);
    return `\`${digits}\``;
  }
  if (typeof value === 'string') return `\`'${value}'\``;
  return undefined;
}

/** The default cell of `row`: the code's literal, or the row's words when the code's default is none (`undefined`, a list, an object). */
export function defaultCell(row: OptionRow, definition: OptionsDefinition, defaultsFrom: readonly OptionRow[] = []): string {
  const literal = literalDefault(definition.defaults[row.options[0]!]);
  const worded = row.default ?? defaultsFrom.find((other) => other.options[0] === row.options[0])?.default;
  if (literal !== undefined && worded === undefined) return row.defaultNote === undefined ? literal : `${literal} (${row.defaultNote})`;
  if (worded !== undefined) return worded;
  throw new Error(`options-docs.ts: ${row.options.join(', ')} needs a \`default\` (the code's default is not a literal)`);
}

/** The table, as Markdown. */
export function renderOptionTable(table: OptionTable): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    `| ${table.header} | default | what |`,
    '| --- | --- | --- |',
    ...table.rows.map(
      (row) =>
        `| ${row.options.map((name) => `\`${name}\``).join(' / ')} | ${cell(defaultCell(row, table.definition, table.defaultsFrom))} | ${cell(row.what)} |`,
    ),
  ].join('\n');
}

/** The text between the table's markers in `text`, or `undefined` when the markers are missing. */
export function sectionOf(text: string, name: string): string | undefined {
  const { start, end } = markersOf(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  return from >= 0 && to > from ? text.slice(from + start.length, to).trim() : undefined;
}
