/**
 * What one memory load that waits on the one before costs, by how much memory the loads range over:
 * a random cycle through an Int32Array, each element the index of the next, so no load can start
 * before the last has answered. A broad crawl's warm check is such a chain (its origin's slot, then
 * what the slot points to), and this is the floor under each link of it on the machine at hand.
 *
 *   node test/bench/memory-latency.mjs [MiB...]   (default: 4 95 954 3815)
 */
const sizes = process.argv.slice(2).map(Number);
const LOADS = 5_000_000;

for (const mib of sizes.length > 0 ? sizes : [4, 95, 954, 3815]) {
  const n = Math.floor((mib * 2 ** 20) / 4);
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) next[i] = i;
  // Sattolo's shuffle: one cycle through every element.
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * i);
    const t = next[i];
    next[i] = next[j];
    next[j] = t;
  }
  let at = 0;
  const start = process.hrtime.bigint();
  for (let k = 0; k < LOADS; k++) at = next[at];
  const ns = Number(process.hrtime.bigint() - start) / LOADS;
  // Kept, so the loop is not optimized away.
  globalThis.lastElement = at;
  console.log(`${mib.toLocaleString('en-US')} MiB: ${ns.toFixed(0)} ns per dependent load`);
}
