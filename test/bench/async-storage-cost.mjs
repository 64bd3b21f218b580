/**
 * What an AsyncLocalStorage in use costs every promise of a Node 20 process: CPU per `await` with
 * one or two storages entered (a library's storage is the second, beside Crawlee's own).
 *
 *   node test/bench/async-storage-cost.mjs 1
 *   node test/bench/async-storage-cost.mjs 2
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const storages = Number(process.argv[2] ?? 1);
const AWAITS = 200_000;

async function work() {
  for (let i = 0; i < AWAITS; i++) await Promise.resolve(i);
}

for (let i = 0; i < storages; i++) new AsyncLocalStorage().enterWith({ i });
await work();
const start = process.cpuUsage();
await work();
const cpu = process.cpuUsage(start);
console.log(`${storages} storage(s) in use: ${(((cpu.user + cpu.system) / AWAITS) * 1000).toFixed(0)} ns of CPU per await`);
