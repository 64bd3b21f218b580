/** A code block of the docs that imports what it uses (scripts/snippets.mjs). */
export interface DocBlock {
  /** The doc, relative to the repository's root. */
  readonly doc: string;
  /** The line of its opening fence. */
  readonly line: number;
  readonly body: string;
  /** An ES module (a `ts`, `js` or `mjs` block with `import` lines), or CommonJS (a `cjs` block). */
  readonly module: 'esm' | 'commonjs';
  /** A file name for it: the doc's path and the line, without extension. */
  readonly name: string;
}

export function docBlocks(): DocBlock[];
