/**
 * What one crawl record costs the crawl's process: the recorder's work per request that left (the
 * record built from a verdict, stringified, buffered and written to the file), timed over many
 * records in one process, so the figure is known far more closely than the few-percent noise of a
 * whole crawl's CPU (the link-dense bench). Divided by a page's CPU in the link-dense crawl, it is
 * the share of crawl CPU records add there (about one record per page: the fetch; that crawl
 * skips nothing).
 *
 *   npm run build && node --expose-gc test/bench/records-cost.mjs [--records=200000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlRecorder } from '../../packages/crawlee/dist/records/recorder.js';
import { RobotsManager } from '../../packages/manager/dist/bundle.js';

const count = Number(process.argv.find((a) => a.startsWith('--records='))?.slice(10) ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'heed-records-cost-'));
const file = join(dir, 'crawl-records.jsonl');
const manager = new RobotsManager({ userAgent: 'HeedBot/1.0 (+https://heed.example/bot)' });
// A verdict as the crawl has them: an invalid-url one needs no fetch, and carries the same fields but a snapshot; give it one.
const base = await manager.decide('not a url');
const verdict = Object.assign(Object.create(Object.getPrototypeOf(base)), base, {
  reason: 'rules',
  origin: 'https://www.example.com',
  snapshot: 'sha256:' + 'ab'.repeat(32),
  record: { status: 'ok', httpStatus: 200, fetchedAt: Date.now(), ageMs: 0 },
});
const recorder = new CrawlRecorder(
  { file, maxBufferBytes: 65_536, flushSecs: 1 },
  {
    productToken: 'HeedBot',
    purposes: [],
    pageUserAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
    userAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
  },
  manager,
  () => {},
  undefined,
  async () => {
    throw new Error('no dataset in this measure');
  },
);
const urls = Array.from({ length: 1000 }, (_, i) => `https://www.example.com/p/${i}?ref=link-dense&page=${i}`);
for (let i = 0; i < 20_000; i++) recorder.passed('before-fetch', urls[i % 1000], verdict);
globalThis.gc?.();
const start = process.cpuUsage();
for (let i = 0; i < count; i++) recorder.passed('before-fetch', urls[i % 1000], verdict);
await recorder.flush();
const used = process.cpuUsage(start);
const perRecordUs = (used.user + used.system) / count;
const bytesPerRecord = Math.round(statSync(file).size / (count + 20_000));
// A skip at enqueue, as a disallowed link of every page makes one.
const skip = {
  url: urls[0],
  origin: 'https://www.example.com',
  productToken: 'HeedBot',
  reason: 'rules',
  stage: 'enqueue',
  line: 3,
  rule: { directive: 'disallow', pattern: '/private/', line: 3 },
  httpStatus: 200,
  snapshot: verdict.snapshot,
  robotsFetchedAt: Date.now(),
  referrer: urls[1],
  message: 'disallowed for HeedBot by "Disallow: /private/" at https://www.example.com/robots.txt line 3',
};
const skipStart = process.cpuUsage();
for (let i = 0; i < count; i++) recorder.skipped(skip);
await recorder.flush();
const skipUsed = process.cpuUsage(skipStart);
console.log(
  JSON.stringify({
    records: count,
    cpuMicrosecondsPerRequestRecord: Number(perRecordUs.toFixed(2)),
    cpuMicrosecondsPerSkipRecord: Number(((skipUsed.user + skipUsed.system) / count).toFixed(2)),
    bytesPerRequestRecord: bytesPerRecord,
  }),
);
await recorder.close();
await manager.close();
rmSync(dir, { recursive: true, force: true });
