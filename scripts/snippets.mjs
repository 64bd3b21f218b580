#!/usr/bin/env node
/**
 * Writes every TypeScript and JavaScript block of the READMEs and references that imports what it
 * uses (a block with an `import` line: a program, not a fragment of one) to
 * `test/snippets/extracted/`, one module each, so that `npm run typecheck` (tsc -b test) checks
 * each as written: its imports, the options it passes, the types it relies on. Blocks without an
 * `import` are fragments (an interface listed, an option shown in place) and are left out.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test/snippets/extracted');
const docs = [
  'README.md',
  ...['parser', 'manager', 'crawlee', 'cli'].flatMap((pkg) => [`packages/${pkg}/README.md`, `packages/${pkg}/docs/reference.md`]),
  ...readdirSync(join(root, 'examples')).map((example) => `examples/${example}/README.md`),
];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
let written = 0;
for (const doc of docs) {
  let text;
  try {
    text = readFileSync(join(root, doc), 'utf8');
  } catch {
    continue;
  }
  for (const match of text.matchAll(/^```(?:ts|typescript|js|javascript|mjs)\n([\s\S]*?)^```/gm)) {
    const body = match[1];
    if (!/^import /m.test(body)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    const name = `${doc.replaceAll('/', '_').replace(/\.md$/, '')}_${line}.ts`;
    writeFileSync(join(out, name), `// ${doc}, line ${line}: as written there (scripts/snippets.mjs).\n${body}\nexport {};\n`);
    written++;
  }
}
console.log(`snippets: ${written} blocks of the docs in ${relative(root, out)}`);
