/**
 * What robots handling makes the rest of a crawl spend, from the CPU profiles the link-dense bench
 * keeps (`CRAWL_CPU_PROF=<folder>`: one `<variant>-<pid>.cpuprofile` per crawl). Each function's
 * samples are read as a share of its own crawl's CPU, so a slow minute of the machine moves them
 * little; a function outside Heed whose share is higher in the crawls with Heed than in those
 * without does work Heed causes (got handling the hooks Heed adds to each request, say), which
 * Heed's own share (attribution.mjs) does not count.
 *
 *   CRAWL_CPU_PROF=/tmp/prof node --expose-gc test/bench/link-dense.bench.mjs --rounds=8 \
 *     --variants=none,heed --no-profile --no-control
 *   node test/bench/crawl/profile-shares.mjs /tmp/prof [--top=25]
 *
 * Prints Heed's own share of each crawl with Heed, then the functions outside Heed whose mean share
 * rose most over the crawls without robots handling, with each crawl's share: a rise every crawl
 * shows is work Heed causes; one within the crawls' spread is the machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attributeProfile } from './attribution.mjs';

const folder = process.argv[2];
if (!folder || folder.startsWith('--')) {
  console.error('usage: node test/bench/crawl/profile-shares.mjs <folder of .cpuprofile files> [--top=25]');
  process.exit(2);
}
const top = Number(process.argv.find((arg) => arg.startsWith('--top='))?.slice('--top='.length) ?? 25);
const heedRoot = pathToFileURL(join(import.meta.dirname, '../../../')).href;

/** The function a sample is counted to: its innermost frame of package or application code (Node internals and builtins to their caller). */
function functionShares(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const names = new Map();
  const nameOf = (id) => {
    if (names.has(id)) return names.get(id);
    let at = id;
    let frame = nodes.get(at).callFrame;
    // Internals and builtins belong to their caller; V8's own entries ("(garbage collector)") stay themselves.
    while ((frame.url === '' || frame.url.startsWith('node:')) && !frame.functionName.startsWith('(') && parents.has(at)) {
      const parent = nodes.get(parents.get(at)).callFrame;
      if (parent.functionName === '(root)') break;
      at = parents.get(at);
      frame = parent;
    }
    const where = frame.url.replace(/^.*\/node_modules\//, '').replace(heedRoot, '');
    const name = where === '' ? frame.functionName : `${where}:${frame.lineNumber + 1} ${frame.functionName || '(anonymous)'}`;
    names.set(id, name);
    return name;
  };
  const micros = new Map();
  let total = 0;
  profile.samples.forEach((sample, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const name = nameOf(sample);
    micros.set(name, (micros.get(name) ?? 0) + delta);
    total += delta;
  });
  return new Map([...micros].map(([name, us]) => [name, (us / total) * 100]));
}

const crawls = { heed: [], none: [] };
const heedShares = [];
for (const file of readdirSync(folder).filter((name) => name.endsWith('.cpuprofile'))) {
  const variant = file.split('-')[0];
  if (!(variant in crawls)) continue;
  const profile = JSON.parse(readFileSync(join(folder, file), 'utf8'));
  crawls[variant].push(functionShares(profile));
  if (variant === 'heed') {
    const ms = attributeProfile(profile, heedRoot);
    heedShares.push(`${((ms.heed / ms.total) * 100).toFixed(2)}%`);
  }
}
if (crawls.heed.length === 0 || crawls.none.length === 0) {
  console.error(`${folder}: needs profiles of crawls with Heed (heed-*.cpuprofile) and without (none-*.cpuprofile).`);
  process.exit(2);
}

console.log(`${crawls.heed.length} crawls with Heed, ${crawls.none.length} without (${folder})`);
console.log(`Heed's own share of each crawl with it: ${heedShares.join(', ')}`);
const isHeed = (name) => name.startsWith('packages/');
const mean = (list, name) => list.reduce((sum, shares) => sum + (shares.get(name) ?? 0), 0) / list.length;
const each = (list, name) => list.map((shares) => (shares.get(name) ?? 0).toFixed(2)).join('/');
const names = new Set([...crawls.heed, ...crawls.none].flatMap((shares) => [...shares.keys()]));
const rises = [...names]
  .filter((name) => !isHeed(name))
  .map((name) => ({ name, rise: mean(crawls.heed, name) - mean(crawls.none, name) }))
  .sort((a, b) => b.rise - a.rise);
console.log(`\nOutside Heed, the largest rises in share of the crawl (percentage points; each crawl's share, with Heed | without):`);
for (const { name, rise } of rises.slice(0, top)) {
  console.log(`${rise >= 0 ? '+' : ''}${rise.toFixed(3)}  ${name}   ${each(crawls.heed, name)} | ${each(crawls.none, name)}`);
}
