/**
 * Joins each library's compiled modules (`dist/**\/*.js`, written by `tsc -b`) into the one file its
 * package exports, `dist/bundle.js`, with a source map back to `src/`.
 *
 * Why: Node loads an ES module graph file by file (resolve, read, compile, link), and that, not the
 * code, was most of what importing Heed cost a fresh process: a crawler started per job, a fleet
 * worker or the `heed` command pays it on every start. One file per package loads in a fraction of
 * the time (BENCHMARKS.md, "Targets": cold start).
 *
 * Every bare import stays an import (`--packages=external`): the packages share one `@heed/parser`
 * (its error classes are checked with `instanceof`), and the user's own Crawlee, got-scraping,
 * ioredis and Node's modules are never copied in. `tsc -b` still writes the declarations, which the
 * packages' `types` name, and the modules, which only this script reads.
 *
 *   node scripts/bundle.mjs [package dir...]   (default: packages/parser, packages/manager, packages/crawlee)
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const LIBRARIES = ['packages/parser', 'packages/manager', 'packages/crawlee'];

/** Bundles the package at `dir` (its `dist/index.js`, built) into `dist/bundle.js`. */
async function bundlePackage(dir) {
  const entry = join(dir, 'dist', 'index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the package with tsc -b first (npm run build).`);
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'dist', 'bundle.js'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The map points at src/ (esbuild follows tsc's maps), which every package ships.
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });
}

const dirs = process.argv.slice(2);
for (const dir of dirs.length > 0 ? dirs.map((d) => resolve(d)) : LIBRARIES.map((d) => join(root, d))) await bundlePackage(dir);
