// A user's ESM crawler on Crawlee 4 of the kind named by the first argument (playwright, puppeteer, jsdom) with
// RobotsPlugin attached (blockSubresources: true), crawling the site the test started.
// Prints one JSON line: what was handled and what the plugin and Crawlee reported.
import { MemoryStorageBackend, serviceLocator } from '@crawlee/core';
import { RobotsPlugin } from '@heed/crawlee';

serviceLocator.setStorageBackend(new MemoryStorageBackend());
const kind = process.argv[2];
const { start, probes, chromium } = JSON.parse(process.env.HEED_COMPAT);
const handled = [];
const crawleeSkips = [];

/**
 * Waits until the test's servers saw the allowed requests the page makes (popups), then a little
 * longer, so a disallowed twin would have had its chance. The test serves the counts at probe
 * URLs; they are asked with Node's fetch, not through the crawler.
 */
async function settle(url) {
  const wanted = probes[new URL(url).pathname] ?? [];
  const deadline = Date.now() + 10_000;
  const seen = async (probe) => Number(await (await fetch(probe)).text()) > 0;
  while (Date.now() < deadline && !(await Promise.all(wanted.map(seen))).every(Boolean)) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 400));
}

const common = {
  maxRequestRetries: 0,
  onSkippedRequest: (skip) => void crawleeSkips.push(skip),
  // A hook that rewrites a URL after the request manager's check: checked again before the fetch.
  preNavigationHooks: [
    ({ request }) => {
      if (new URL(request.url).pathname === '/rewrite-me') request.url = new URL('/private/rewritten', request.url).href;
    },
  ],
  requestHandler: async ({ request, enqueueLinks }) => {
    handled.push(request.loadedUrl ?? request.url);
    await settle(request.url);
    if (new URL(request.url).pathname === '/') await enqueueLinks({ strategy: 'all' });
  },
};

async function makeCrawler() {
  if (kind === 'playwright') {
    const { PlaywrightCrawler } = await import('@crawlee/playwright');
    const { chromium: launcher } = await import('playwright');
    return new PlaywrightCrawler({
      ...common,
      headless: true,
      launchContext: { launcher, launchOptions: { executablePath: chromium.path, args: chromium.args } },
    });
  }
  if (kind === 'puppeteer') {
    const { PuppeteerCrawler } = await import('@crawlee/puppeteer');
    const { default: launcher } = await import('puppeteer');
    return new PuppeteerCrawler({
      ...common,
      headless: true,
      launchContext: { launcher, launchOptions: { executablePath: chromium.path, args: chromium.args } },
    });
  }
  if (kind === 'jsdom') {
    const { JSDOMCrawler } = await import('@crawlee/jsdom');
    return new JSDOMCrawler({ ...common, hideInternalConsole: true });
  }
  throw new Error(`Unknown crawler kind ${kind}: the Crawlee 4 project has playwright, puppeteer and jsdom`);
}

const crawler = await makeCrawler();
const skips = [];
const robots = await RobotsPlugin.attach(crawler, {
  userAgent: 'HeedBot/1.0 (+https://heed.example/bot)',
  blockSubresources: true,
  logSummary: false,
  onSkip: (e) => void skips.push([e.url, e.stage, e.reason]),
});
await crawler.run(start);
await robots.close();
console.log(JSON.stringify({ handled, skips, crawleeSkips, failed: crawler.statistics.state.requestsFailed }));
