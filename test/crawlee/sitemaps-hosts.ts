/**
 * Hosts for the sitemap tests: like `site.ts`'s origins, but each on a loopback address of its own
 * (127.0.0.2, 127.0.0.3, …), so that they differ by hostname and not only by port — the sitemap
 * scope rule's default strategy is `'same-hostname'`. Also: the sitemap files they serve, an event-loop
 * watch and a memory watch.
 */
import { existsSync, readFileSync } from 'node:fs';
import { RobotsManager } from '@heed/manager';
import { RobotsPlugin, type SitemapOptions } from '@heed/crawlee';
import { cheerioCrawler } from './crawlers.js';
import { startSiteOn, type RouteResponse } from './site.js';

/** One origin per address, each on a free port (the site helper's servers, on these addresses). */
export const startHosts = startSiteOn;

/** The sitemap namespace attribute. */
export const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** A sitemap `<urlset>` of these page URLs, one `<url>` a line. */
export const urlset = (urls: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset ${NS}>${urls.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}</urlset>`;

/** A sitemap index naming these sitemap URLs. */
export const sitemapIndex = (urls: readonly string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex ${NS}>${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;

/**
 * The crawl the sitemap-limit tests make: a CheerioCrawler following every link, two at a time,
 * with the plugin attached with `sitemaps` on a manager of its own, its warnings collected instead
 * of logged. Close `manager` when done.
 */
export async function sitemapCrawl(userAgent: string, sitemaps: SitemapOptions) {
  const manager = new RobotsManager({ userAgent });
  const crawler = cheerioCrawler({ maxConcurrency: 2, requestHandler: async (ctx) => void (await ctx.enqueueLinks()) });
  const warnings: string[] = [];
  crawler.log.warning = (message: string) => void warnings.push(message);
  await RobotsPlugin.attach(crawler, { userAgent, manager, logSummary: false, sitemaps });
  return { manager, crawler, warnings };
}

/** A route answering `body` as XML. */
export const xml = (body: string): RouteResponse => ({ headers: { 'content-type': 'application/xml' }, body });

/**
 * Watches how long the event loop is held: a 10 ms interval records, for each tick, how late it
 * came — counted as the smaller of the wall-clock delay and the CPU time the main thread used in it
 * (Linux: /proc/self/task/<pid>/schedstat, nanoseconds; elsewhere the whole process's CPU time), so
 * that neither the process being descheduled on a loaded machine nor GC helper threads are mistaken
 * for the event loop being blocked.
 */
export function watchEventLoop(): { stop(): number } {
  const INTERVAL = 10;
  let worst = 0;
  let lastWall = performance.now();
  let lastCpu = mainThreadCpuMs();
  const tick = () => {
    const wall = performance.now();
    const cpu = mainThreadCpuMs();
    const late = Math.min(wall - lastWall, cpu - lastCpu) - INTERVAL;
    worst = Math.max(worst, late);
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, INTERVAL);
  return {
    stop: () => {
      clearInterval(timer);
      // The stretch that ends where `stop()` is called (the awaited work finishing in the same run
      // of microtasks) has had no tick after it: count it too.
      tick();
      return worst;
    },
  };
}

const TASK_SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const hasTaskSchedstat = existsSync(TASK_SCHEDSTAT);

/** CPU time of the main thread, in milliseconds. */
export function mainThreadCpuMs(): number {
  if (!hasTaskSchedstat) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  // The first field is the time the thread has run on a CPU, in nanoseconds (the 10 ms ticks of
  // /proc/.../stat are too coarse for a 100 ms bound).
  return Number(readFileSync(TASK_SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
}

/** Samples the resident set size every 25 ms; `stop()` gives the peak growth over the start, in bytes. */
export function watchMemory(): { stop(): number } {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return peak - start;
    },
  };
}
