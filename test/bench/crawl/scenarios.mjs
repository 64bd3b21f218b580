/**
 * The crawls the benchmark runs, each returning plain figures (report.mjs turns them into tables):
 *
 *   soak         one long Heed crawl over many origins: nothing disallowed fetched, every allowed
 *                page crawled, heap bounded
 *   warm         a site whose every linked page is allowed, robots.txt already cached: what each
 *                robots treatment costs per page
 *   cold         500 origins whose robots.txt answers after 200 ms: time to the first 1,000 pages
 *   unreachable  50 origins whose robots.txt answers 503, or never answers: robots.txt fetches made
 *                and pages crawled that RFC 9309 says must not be (5xx/unreachable = disallow all)
 *
 * Every crawl runs in its own process (run-crawl.mjs) against servers in another (site-host.mjs).
 */
import { runCrawl } from './run-crawl.mjs';
import { startSite } from './site-host.mjs';
import { allOrigins, startUrls } from './site.mjs';

export const VARIANTS = ['none', 'crawlee', 'heed'];
export const USER_AGENT = 'HeedBot/1.0 (+https://example.com/bot)';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Variant order of round `round`: rotated, so no treatment always runs first or last. */
const orderOf = (round, variants = VARIANTS) => variants.map((_, i) => variants[(i + round) % variants.length]);

const crawlJob = (variant, urls, options) => ({
  variant,
  startUrls: urls,
  userAgent: USER_AGENT,
  minConcurrency: options.minConcurrency,
  maxConcurrency: options.maxConcurrency,
  // `RobotsPlugin.attach()` options of the Heed crawls (the worker reads them for Heed only).
  ...(options.heedOptions ? { heedOptions: options.heedOptions } : {}),
  ...options.job,
});

/** Fails the run with the crawl's own error text when a crawl process broke. */
function orThrow(run, what) {
  if (run.outcome === 'error') throw new Error(`${what}: ${run.error}`);
  return run;
}

/**
 * The soak: `pages` allowed pages over `origins` origins, Heed attached with a manager whose parsed
 * cache holds `cacheSize` origins and whose MemoryStore holds `storeEntries` records.
 */
export async function soak(options) {
  const pagesPerOrigin = Math.ceil(options.pages / options.origins);
  const config = { origins: options.origins, pagesPerOrigin, block: 41, robots: 'rules', disallowedLinks: true, padBytes: 2_000 };
  const site = await startSite(config);
  try {
    const urls = startUrls(config, site.port, 10);
    const job = crawlJob('heed', urls, {
      ...options,
      job: { measureHeap: true, heed: { cacheSize: options.cacheSize, storeEntries: options.storeEntries } },
    });
    const run = orThrow(await runCrawl(job, options.timeoutMs), 'soak crawl');
    const log = await site.log();
    return {
      config,
      startUrls: urls.length,
      expectedPages: config.origins * pagesPerOrigin,
      cacheSize: options.cacheSize,
      storeEntries: options.storeEntries,
      run,
      log,
    };
  } finally {
    await site.close();
  }
}

/** Warm: `rounds` rounds of the variants (`options.variants`, default all three), interleaved, on a site that links only allowed pages. */
export async function warm(options) {
  const config = {
    origins: options.origins,
    pagesPerOrigin: Math.ceil(options.pages / options.origins),
    block: 42,
    robots: 'allow-all-linked',
    disallowedLinks: false,
    padBytes: 2_000,
  };
  const site = await startSite(config);
  const runs = { none: [], crawlee: [], heed: [] };
  try {
    const urls = startUrls(config, site.port, 1);
    const prewarmOrigins = allOrigins(config, site.port);
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of orderOf(round, options.variants)) {
        await site.reset();
        const run = orThrow(
          await runCrawl(crawlJob(variant, urls, { ...options, job: { prewarmOrigins } }), options.timeoutMs),
          `warm crawl (${variant})`,
        );
        const log = await site.log();
        runs[variant].push({ ...run, log });
        const seconds = run.result ? (run.result.ms / 1000).toFixed(2) : `${run.outcome}`;
        console.log(
          `  warm round ${round + 1} ${variant}: ${seconds} s, ${log.pagesDistinct} pages, ${log.robotsRequests} robots.txt requests in the run`,
        );
      }
    }
    return { config, expectedPages: config.origins * config.pagesPerOrigin, runs };
  } finally {
    await site.close();
  }
}

/** Cold: time from `crawler.run()` to the `stopAfterPages`-th page handled, robots.txt slow to answer. */
export async function cold(options) {
  const config = {
    origins: options.origins,
    pagesPerOrigin: 4,
    block: 43,
    robots: 'delay',
    robotsDelayMs: options.robotsDelayMs,
    disallowedLinks: false,
    padBytes: 2_000,
  };
  const site = await startSite(config);
  const runs = { none: [], crawlee: [], heed: [] };
  try {
    const urls = startUrls(config, site.port, 1);
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of orderOf(round)) {
        await site.reset();
        const job = crawlJob(variant, urls, { ...options, job: { stopAfterPages: options.stopAfterPages } });
        const run = orThrow(await runCrawl(job, options.timeoutMs), `cold crawl (${variant})`);
        const log = await site.log();
        runs[variant].push({ ...run, log });
        const what =
          run.outcome === 'stopped'
            ? `${(run.stoppedAt.ms / 1000).toFixed(2)} s to ${run.stoppedAt.pages} pages`
            : `${run.outcome} (${log.pageRequests} pages requested)`;
        console.log(`  cold round ${round + 1} ${variant}: ${what}, ${log.robotsRequests} robots.txt requests`);
      }
    }
    return { config, runs };
  } finally {
    await site.close();
  }
}

/**
 * Unreachable: for robots.txt answering `mode` ('503' or 'hang'), `rounds` crawls of each variant.
 * These count requests rather than time them, so all of a mode's crawls run at once, each against its
 * own servers (a hanging robots.txt would otherwise cost the capped time once per crawl).
 */
export async function unreachable(mode, options) {
  const crawls = [];
  for (let round = 0; round < options.rounds; round++) for (const variant of orderOf(round)) crawls.push({ round, variant });
  const results = await Promise.all(
    crawls.map(async ({ round, variant }, n) => {
      const config = {
        origins: options.origins,
        pagesPerOrigin: options.pagesPerOrigin,
        block: 50 + n,
        robots: mode,
        disallowedLinks: false,
        padBytes: 2_000,
      };
      const site = await startSite(config);
      try {
        const run = orThrow(
          await runCrawl(crawlJob(variant, startUrls(config, site.port, 1), options), options.timeoutMs),
          `${mode} crawl (${variant})`,
        );
        const log = await site.log();
        const ended =
          run.outcome === 'finished'
            ? `ended in ${(run.result.ms / 1000).toFixed(1)} s`
            : `did not finish in ${options.timeoutMs / 1000} s`;
        console.log(
          `  robots.txt ${mode}, round ${round + 1} ${variant}: ${ended}; ${log.robotsRequests} robots.txt requests, ${log.pageRequests} pages fetched`,
        );
        return { round, variant, run, log };
      } finally {
        await site.close();
      }
    }),
  );
  const runs = { none: [], crawlee: [], heed: [] };
  for (const entry of results) runs[entry.variant].push({ ...entry.run, log: entry.log });
  return { mode, origins: options.origins, pagesPerOrigin: options.pagesPerOrigin, runs };
}

/**
 * Link-dense: one origin of `pages` pages, each linking `linksPerPage` pages of the site, robots.txt a
 * typical ~2 KB file none of whose rules matches a page; each crawl stops after `maxPages` pages
 * (`maxRequestsPerCrawl`). Nothing is prewarmed: the one robots.txt fetch is part of the crawl, as in
 * a real one. `rounds` rounds of the variants, interleaved in a rotating order.
 */
export async function dense(options) {
  // `none-again`: a second crawl without robots handling in each round, the control: its ratio to
  // the first is what the measure reads for identical code, so a run shows its own resolution.
  const variants = [
    ...(options.variants ?? VARIANTS),
    ...(options.control ? ['none-again'] : []),
    ...(options.abRoot ? ['heed-base'] : []),
    ...(options.signedOptions ? ['heed-signed'] : []),
  ];
  const config = {
    origins: 1,
    pagesPerOrigin: options.pages,
    block: 44,
    robots: 'rules',
    typicalRobots: true,
    linksPerPage: options.linksPerPage,
    disallowedLinks: false,
    padBytes: 2_000,
  };
  const site = await startSite(config);
  const runs = Object.fromEntries(variants.map((variant) => [variant, []]));
  try {
    const urls = startUrls(config, site.port, 1);
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of orderOf(round, variants)) {
        await site.reset();
        const job =
          variant === 'heed-base'
            ? crawlJob('heed', urls, { ...options, job: { maxRequestsPerCrawl: options.maxPages, heedRoot: options.abRoot } })
            : variant === 'heed-signed'
              ? crawlJob('heed', urls, {
                  ...options,
                  heedOptions: { ...options.heedOptions, ...options.signedOptions },
                  job: { maxRequestsPerCrawl: options.maxPages },
                })
              : crawlJob(variant === 'none-again' ? 'none' : variant, urls, { ...options, job: { maxRequestsPerCrawl: options.maxPages } });
        const run = orThrow(await runCrawl(job, options.timeoutMs), `link-dense crawl (${variant})`);
        const log = await site.log();
        runs[variant].push({ ...run, log });
        const what =
          run.outcome === 'finished'
            ? `${run.result.pages} pages, ${(run.result.cpuMs / run.result.pages).toFixed(2)} ms CPU per page`
            : run.outcome;
        console.log(`  link-dense round ${round + 1} ${variant}: ${what}, ${log.robotsRequests} robots.txt requests`);
      }
    }
    // Profiled crawls, apart from the timed ones (the profiler costs the crawl a few percent): what
    // the robots handling itself spent, which the noise of whole crawls cannot rank.
    const attribution = {};
    const profiled = variants.filter((variant) => variant !== 'none' && variant !== 'none-again' && variant !== 'heed-signed');
    for (let crawl = 0; crawl < (options.attributionCrawls ?? 0); crawl++) {
      for (const variant of orderOf(crawl, profiled)) {
        await site.reset();
        const job = {
          maxRequestsPerCrawl: options.maxPages,
          attribute: true,
          ...(variant === 'heed-base' ? { heedRoot: options.abRoot } : {}),
        };
        const run = orThrow(
          await runCrawl(crawlJob(variant === 'heed-base' ? 'heed' : variant, urls, { ...options, job }), options.timeoutMs),
          `link-dense profiled crawl (${variant})`,
        );
        if (run.outcome !== 'finished') continue;
        const { pages, attribution: ms } = run.result;
        (attribution[variant] ??= []).push({ pages, ...ms });
        console.log(
          `  link-dense profiled crawl ${crawl + 1} ${variant}: robots handling ${(((ms.heed + ms.builtin) * 1000) / pages).toFixed(0)} ms per 1,000 pages, ${(((ms.heed + ms.builtin) / ms.total) * 100).toFixed(2)}% of the crawl`,
        );
      }
    }
    return { config, runs, attribution };
  } finally {
    await site.close();
  }
}
