#!/usr/bin/env node
/**
 * Fills npm's cache with every package the user projects of `test:compat` install
 * (test/compat/releases.json: each Crawlee 3 release, its browser crawlers, the Crawlee 4 builds'
 * own dependencies, Heed's dependencies), without installing any of them.
 *
 * `.ci/run` starts it in the background beside `npm start` and `npm test`. A cold `npm install`
 * of one such project waits on the registry for most of its time (on a fresh machine, about 120 s
 * of wall time for 27 CPU-s); with every package cached, the same install with `--prefer-offline`
 * takes about 13 s. The waits are spent here, while the tests keep the cores busy, instead of in
 * front of the contract suites that wait for their projects.
 *
 * Two steps: one `npm install --package-lock-only` of a project depending on all of them under
 * aliases (npm fetches the metadata of the whole tree, and installs nothing), then `npm cache add`
 * of every package the lock names (their tarballs). A failure is reported and ends the script with
 * status 0: the projects then install from the registry, as without it.
 *
 * Usage: node scripts/warm-npm-cache.mjs [--shared <dir>]   (default: ../shared beside the checkout)
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const started = Date.now();
const args = process.argv.slice(2);
const sharedAt = args.indexOf('--shared');
const SHARED = sharedAt >= 0 ? args[sharedAt + 1] : join(ROOT, '..', 'shared');
/** npm's own limit on one command's run here: a registry that stops answering must not hold CI. */
const STEP_TIMEOUT_MS = 8 * 60_000;
/** Packages per `npm cache add`: each fetches its arguments at once. */
const CHUNK = 150;

const say = (line) => console.log(`warm-npm-cache: ${line}`);
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** The dependencies of the project that stands for all of them, each under an alias of its own. */
function dependencies() {
  const releases = JSON.parse(readFileSync(join(ROOT, 'test/compat/releases.json'), 'utf8'));
  const wanted = [];
  const add = (name, range) => wanted.push([name, range]);
  for (const release of [...releases.crawlee3, releases.belowRange]) add('@crawlee/cheerio', release);
  for (const [release, set] of Object.entries(releases.browsers3)) {
    for (const name of releases.crawlee3BrowserPackages) add(`@crawlee/${name}`, release);
    add('playwright', set.playwright);
    add('playwright-core', set.playwright);
    add('puppeteer', set.puppeteer);
  }
  for (const [name, range] of Object.entries({ ...releases.browsers4, ...releases.devDependencies })) add(name, range);
  // Heed's own registry dependencies (its packages come packed from this checkout).
  for (const folder of ['parser', 'manager', 'crawlee', 'cli']) {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'));
    for (const [name, range] of Object.entries(manifest.dependencies ?? {})) if (!range.startsWith('workspace:')) add(name, range);
  }
  // The Crawlee 4 builds come as tarballs; what they depend on comes from the registry.
  const crawlee4 = new Set([...releases.crawlee4Packages, ...releases.crawlee4BrowserPackages]);
  for (const folder of ['crawlee-v4', 'crawlee-v4-next']) {
    const dir = join(SHARED, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      const name = /^crawlee-(.+)-4\.\d+\.\d+.*\.tgz$/.exec(file)?.[1];
      if (name === undefined || !crawlee4.has(name)) continue;
      const manifest = JSON.parse(execFileSync('tar', ['-xzOf', join(dir, file), 'package/package.json'], { encoding: 'utf8' }));
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) if (!dep.startsWith('@crawlee/')) add(dep, range);
    }
  }
  const unique = new Map(wanted.map(([name, range]) => [`${name}@${range}`, [name, range]]));
  return Object.fromEntries(
    [...unique.values()].map(([name, range], i) => [`warm-${i}-${name.replace(/[@/]/g, '-').replace(/^-+/, '')}`, `npm:${name}@${range}`]),
  );
}

/** `name@version` of every package a lock file fetches from a registry. */
function packagesOf(lock) {
  const specs = new Set();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (path === '' || entry.link || !entry.integrity || !entry.version) continue;
    if (entry.resolved !== undefined && !/^https?:/.test(entry.resolved)) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    specs.add(`${name}@${entry.version}`);
  }
  return [...specs];
}

const npm = (args, cwd) =>
  run('npm', args, {
    cwd,
    timeout: STEP_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });

const dir = mkdtempSync(join(tmpdir(), 'heed-npm-warm-'));
try {
  const deps = dependencies();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'heed-npm-warm', private: true, dependencies: deps }, null, 2));
  // --legacy-peer-deps: the aliases hold several releases of one package, whose peers disagree.
  await npm(
    ['install', '--package-lock-only', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    dir,
  );
  const specs = packagesOf(JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')));
  say(`the metadata of ${specs.length} packages (${Object.keys(deps).length} asked for) in ${seconds()}`);
  for (let at = 0; at < specs.length; at += CHUNK) await npm(['cache', 'add', ...specs.slice(at, at + CHUNK)], dir);
  say(`${specs.length} packages in npm's cache in ${seconds()}`);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  say(`stopped after ${seconds()}, the projects will fetch what is missing: ${message.split('\n').slice(0, 3).join(' ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
