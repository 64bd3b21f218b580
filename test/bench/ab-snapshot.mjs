/**
 * Copies the built parser and manager to a folder of their own, so a benchmark can load that build
 * beside the current one and time both in the same rounds (A/B of an optimisation):
 *
 *   npm run build && node test/bench/ab-snapshot.mjs /tmp/ab/before
 *   ... change the code, npm run build ...
 *   HEED_AB_MANAGER=/tmp/ab/before/manager/dist/bundle.js node --expose-gc test/bench/plugin-path.bench.mjs --only=warm
 *
 * The copy's manager imports the copy's parser (`node_modules/@heed/parser` beside it); its other
 * dependencies are links to the installed ones.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const target = process.argv[2];
if (!target) {
  console.error('usage: node test/bench/ab-snapshot.mjs <folder>');
  process.exit(2);
}
// A second argument names another checkout's packages/ folder (e.g. main's, to compare with it).
const root = process.argv[3] ? `${process.argv[3].replace(/\/$/, '')}/` : fileURLToPath(new URL('../../packages/', import.meta.url));
rmSync(target, { recursive: true, force: true });
mkdirSync(`${target}/node_modules/@heed`, { recursive: true });
cpSync(`${root}parser/dist`, `${target}/node_modules/@heed/parser/dist`, { recursive: true });
cpSync(`${root}parser/package.json`, `${target}/node_modules/@heed/parser/package.json`);
cpSync(`${root}manager/dist`, `${target}/manager/dist`, { recursive: true });
cpSync(`${root}manager/package.json`, `${target}/manager/package.json`);
for (const name of readdirSync(`${root}manager/node_modules`)) {
  if (name === '@heed' || name.startsWith('.')) continue;
  symlinkSync(`${root}manager/node_modules/${name}`, `${target}/node_modules/${name}`);
}
console.log(`snapshot of the built parser and manager in ${target}`);
