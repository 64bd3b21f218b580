/**
 * One crawl, in its own process (forked by run-crawl.mjs, so every crawl starts cold, its heap is its
 * own, and a crawl stuck on a hanging robots.txt can be ended by killing it): a CheerioCrawler over
 * Crawlee's MemoryStorage (persistStorage false) that enqueues every link (`strategy: 'all'`), with
 * one of three robots.txt treatments:
 *
 *   none     no robots.txt handling
 *   crawlee  Crawlee's own `respectRobotsTxtFile: true`
 *   heed     `RobotsPlugin.attach(crawler, { userAgent, manager })` (@heed/crawlee, built), plus the job's
 *            `heedOptions` if any (to measure what a feature costs: `{ metaRobots: false }`, ...)
 *
 * Receives a job message (see `run-crawl.mjs`), sends `progress` when `stopAfterPages` pages are handled
 * (the parent then ends the process) and `done` with the result when the crawl ends by itself.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attributeProfile } from './attribution.mjs';

const require = createRequire(new URL('../../../packages/crawlee/package.json', import.meta.url));
const { CheerioCrawler, Configuration, ProxyConfiguration, log: crawleeLog } = require('@crawlee/cheerio');

const quiet = { debug() {}, info() {}, warning() {}, error() {} };
/** A package's entry in the checkout at `root`: its bundle, or its modules in a checkout built before the packages were bundled. */
const entryOf = (root, name) => {
  const bundle = new URL(`packages/${name}/dist/bundle.js`, root);
  return existsSync(bundle) ? bundle.href : new URL(`packages/${name}/dist/index.js`, root).href;
};
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/**
 * A CPU profile of what runs from now until `stop()` (the crawl alone, not the process's start-up),
 * sampled every `intervalUs` µs; `stop()` returns it.
 */
async function startProfile(intervalUs) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

function heapAfterGc() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function crawl(job) {
  crawleeLog.setLevel(crawleeLog.LEVELS.ERROR);
  let handled = 0;
  let stopSent = false;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: job.minConcurrency,
      maxConcurrency: job.maxConcurrency,
      maxRequestRetries: 1,
      ...(job.maxRequestsPerCrawl ? { maxRequestsPerCrawl: job.maxRequestsPerCrawl } : {}),
      navigationTimeoutSecs: 30,
      requestHandlerTimeoutSecs: 30,
      respectRobotsTxtFile: job.variant === 'crawlee',
      statusMessageLoggingInterval: 3600,
      // A broad crawl's many host names all reach one loopback proxy (broad-proxy.mjs).
      ...(job.proxyUrl ? { proxyConfiguration: new ProxyConfiguration({ proxyUrls: [job.proxyUrl] }) } : {}),
      useSessionPool: job.useSessionPool ?? true,
      preNavigationHooks: job.plainHeaders
        ? [
            (_ctx, gotOptions) => {
              gotOptions.useHeaderGenerator = false;
            },
          ]
        : [],
      async requestHandler({ enqueueLinks }) {
        handled++;
        if (job.stopAfterPages && handled === job.stopAfterPages && !stopSent) {
          stopSent = true;
          process.send({ type: 'progress', pages: handled, ms: performance.now() - started });
        }
        await enqueueLinks({ strategy: 'all' });
      },
    },
    new Configuration({ persistStorage: false }),
  );

  // `heedRoot`: another checkout's built packages (an A/B of a change within one run), else this one's.
  const heedRoot = job.heedRoot ? pathToFileURL(`${job.heedRoot}/`) : new URL('../../../', import.meta.url);
  let manager;
  let store;
  let robots;
  if (job.variant === 'heed') {
    const { RobotsPlugin } = await import(entryOf(heedRoot, 'crawlee'));
    const { MemoryStore, RobotsManager } = await import(entryOf(heedRoot, 'manager'));
    store = new MemoryStore({
      maxEntries: job.heed?.storeEntries ?? 10_000,
      ...(job.heed?.storeBytes ? { maxBytes: job.heed.storeBytes } : {}),
    });
    manager = new RobotsManager({
      userAgent: job.userAgent,
      log: quiet,
      store,
      cacheSize: job.heed?.cacheSize ?? 10_000,
      ...(job.heed?.maxCacheBytes ? { maxCacheBytes: job.heed.maxCacheBytes } : {}),
    });
    robots = await RobotsPlugin.attach(crawler, { userAgent: job.userAgent, manager, logSummary: false, ...job.heedOptions });
  }

  // "Warm": every origin's robots.txt already in the robots cache before the clock starts.
  if (job.prewarmOrigins) {
    if (job.variant === 'heed') await manager.prefetch(job.prewarmOrigins.map((origin) => `${origin}/`));
    // Crawlee's own per-crawler cache, filled the way its checks fill it.
    if (job.variant === 'crawlee') for (const origin of job.prewarmOrigins) await crawler.getRobotsTxtFileForUrl(`${origin}/`);
  }

  const heapBefore = job.measureHeap ? heapAfterGc() : 0;
  // The live heap (after a full GC) every few seconds: a soak's memory must stay flat, not just end low.
  let liveHeapMax = 0;
  const sampler = job.measureHeap
    ? setInterval(() => {
        liveHeapMax = Math.max(liveHeapMax, heapAfterGc());
      }, job.heapSampleMs ?? 15_000)
    : undefined;

  // `attribute`: who spent the crawl's CPU, robots handling apart (attribution.mjs), from a finer
  // profile; CRAWL_CPU_PROF keeps the profile in that folder.
  const profiler = job.attribute || process.env.CRAWL_CPU_PROF ? await startProfile(250) : undefined;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const finalStats = await crawler.run(job.startUrls);
  const ms = performance.now() - started;
  // CPU time of this process: what the crawl itself cost, whatever else the shared machine was doing.
  const cpu = process.cpuUsage(cpuStart);
  const profile = await profiler?.stop();
  if (profile && process.env.CRAWL_CPU_PROF) {
    const file = `${process.env.CRAWL_CPU_PROF}/${job.variant}-${process.pid}.cpuprofile`;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(profile));
  }
  if (sampler) clearInterval(sampler);

  const result = {
    variant: job.variant,
    pages: handled,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    requestsFinished: finalStats.requestsFinished,
    requestsFailed: finalStats.requestsFailed,
  };
  if (profile && job.attribute) result.attribution = attributeProfile(profile, heedRoot.href);
  if (robots) {
    result.heed = robots.stats;
    const managerStats = manager.stats();
    result.manager = { fetches: managerStats.fetches, cache: managerStats.cache, storeEntries: store.size };
  }
  if (job.measureHeap) {
    const after = heapAfterGc();
    const rssAfter = process.memoryUsage().rss;
    // Heed's own share: what the heap loses when the plugin, the manager and its store let go.
    await robots?.close();
    await manager?.close();
    await store?.close();
    const afterRelease = heapAfterGc();
    result.heap = { before: heapBefore, liveMax: Math.max(liveHeapMax, after), after, heedRetained: after - afterRelease, rss: rssAfter };
  } else {
    await robots?.close();
    await manager?.close();
  }
  return result;
}

process.once('message', async (job) => {
  try {
    const result = await crawl(job);
    process.send({ type: 'done', result }, () => process.exit(0));
  } catch (error) {
    process.send({ type: 'error', message: error instanceof Error ? error.stack : String(error) }, () => process.exit(1));
  }
});
