/**
 * Who spent a crawl's CPU, from a V8 CPU profile of `crawler.run()`: each sample belongs to the
 * innermost frame of package or application code on its stack, Node's internals and V8's builtins
 * (`URL`, regular expressions, promise jobs) counted to the code that called them. Robots handling
 * is then Heed's own frames (its three packages) or, for Crawlee's built-in check, robots-parser's
 * and Crawlee's robots functions (`RobotsTxtFile`, `isAllowedBasedOnRobotsTxtFile`,
 * `getRobotsTxtFileForUrl`). The collector's samples are kept apart: whose allocations it collects
 * the profile cannot say.
 *
 * What this leaves out, on both sides: code of Crawlee's that runs because of the robots handling
 * (a wrapper's call into the queue it wraps, the loop in `enqueueLinks` that calls the built-in
 * check), which the profile cannot tell from the crawl's own.
 */

const HEED_PACKAGES = ['/packages/parser/', '/packages/manager/', '/packages/crawlee/'];

/** The owner of one frame, or undefined for Node internals and builtins (they belong to their caller). */
function frameOwner({ url, functionName }, heedRoot) {
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') return 'other';
  if (url === '' || url.startsWith('node:')) return undefined;
  if (url.startsWith(heedRoot) && HEED_PACKAGES.some((dir) => url.includes(dir))) return 'heed';
  if (url.includes('/robots-parser/') || url.includes('/@crawlee/utils/internals/robots.js')) return 'builtin';
  if (url.includes('/@crawlee/') && /robots/i.test(functionName)) return 'builtin';
  return 'other';
}

/**
 * CPU ms of `profile` by owner: `heed`, `builtin` (Crawlee's robots check), `gc`, `other`, and the
 * `total`. `heedRoot`: the file URL of the checkout whose packages are Heed's (`file:///…/`).
 */
export function attributeProfile(profile, heedRoot) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const owners = new Map();
  const ownerOf = (id) => {
    // Iterative: a deep async stack must not overflow the walk.
    const path = [];
    let at = id;
    let owner;
    while (at !== undefined) {
      if (owners.has(at)) {
        owner = owners.get(at);
        break;
      }
      path.push(at);
      owner = frameOwner(nodes.get(at).callFrame, heedRoot);
      if (owner !== undefined) break;
      at = parents.get(at);
    }
    owner ??= 'other';
    for (const visited of path) owners.set(visited, owner);
    return owner;
  };
  const ms = { heed: 0, builtin: 0, gc: 0, other: 0, total: 0 };
  profile.samples.forEach((sample, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    ms[ownerOf(sample)] += micros / 1000;
    ms.total += micros / 1000;
  });
  return ms;
}
