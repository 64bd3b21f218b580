#!/usr/bin/env node
/**
 * Writes every TypeScript and JavaScript block of the READMEs and references that imports what it
 * uses (a block with an `import` line, or a `cjs` block with a `require()`: a program, not a
 * fragment of one; the ES modules among them) to
 * `test/snippets/extracted/`, one module each, so that `npm run typecheck` (tsc -b test) checks
 * each as written: its imports, the options it passes, the types it relies on. Blocks without an
 * `import` are fragments (an interface listed, an option shown in place) and are left out.
 * test/snippets/run.test.ts runs the same blocks ({@link docBlocks}).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The docs whose blocks are read: the READMEs and references of the packages and examples. */
function docs() {
  return [
    'README.md',
    ...['parser', 'manager', 'crawlee', 'cli'].flatMap((pkg) => [`packages/${pkg}/README.md`, `packages/${pkg}/docs/reference.md`]),
    ...readdirSync(join(root, 'examples')).map((example) => `examples/${example}/README.md`),
  ];
}

/** Every block of the docs that imports what it uses: where it is, and its code. */
export function docBlocks() {
  const blocks = [];
  for (const doc of docs()) {
    let text;
    try {
      text = readFileSync(join(root, doc), 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/^```(ts|typescript|js|javascript|mjs|cjs)\n([\s\S]*?)^```/gm)) {
      const [, fence, body] = match;
      const module = fence === 'cjs' ? 'commonjs' : 'esm';
      // A program loads what it uses; a fragment (an option shown in place) does not.
      if (!(module === 'esm' ? /^import /m : /\brequire\(/).test(body)) continue;
      const line = text.slice(0, match.index).split('\n').length;
      blocks.push({ doc, line, body, module, name: `${doc.replaceAll('/', '_').replace(/\.md$/, '')}_${line}` });
    }
  }
  return blocks;
}

function writeBlocks() {
  const out = join(root, 'test/snippets/extracted');
  mkdirSync(out, { recursive: true });
  // A file is rewritten only when its block changed, and a block gone takes its file with it: tsc -b
  // decides from the files' times whether the test project needs checking again.
  const kept = new Set();
  // CommonJS blocks are run (test/snippets/run.test.ts), not typechecked: the test project is ES modules.
  for (const { doc, line, body, name } of docBlocks().filter((block) => block.module === 'esm')) {
    const file = join(out, `${name}.ts`);
    const content = `// ${doc}, line ${line}: as written there (scripts/snippets.mjs).\n${body}\nexport {};\n`;
    if (!existsSync(file) || readFileSync(file, 'utf8') !== content) writeFileSync(file, content);
    kept.add(`${name}.ts`);
  }
  for (const name of readdirSync(out)) if (!kept.has(name)) rmSync(join(out, name));
  console.log(`snippets: ${kept.size} blocks of the docs in ${relative(root, out)}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) writeBlocks();
