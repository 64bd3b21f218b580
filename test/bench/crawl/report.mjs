/**
 * Markdown tables of the crawl benchmark's figures, and the writer of its BENCHMARKS.md section
 * (only that section is replaced; every other section stays as it is).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { median } from './scenarios.mjs';

export const SECTION_TITLE = '## Crawls: soak and three-way comparison';
/** A hand-written subsection at the end of the section, kept when the tables are rewritten. */
export const NOTES_TITLE = '### Notes';

const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const met = (ok) => (ok ? 'yes' : '**not met**');
const NAMES = { none: 'no robots handling', crawlee: 'Crawlee `respectRobotsTxtFile: true`', heed: 'Heed (`RobotsPlugin.attach`)' };

const table = (header, rows) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

/** The soak's table, and whether its hard checks (nothing disallowed, everything allowed) hold. */
export function soakTable(soak, heapLimitMb) {
  const { run, log, config, expectedPages } = soak;
  const result = run.result;
  const finished = run.outcome === 'finished';
  const pagesPerSecond = finished ? (result.pages / result.ms) * 1000 : NaN;
  const heapOk = finished && result.heap.after <= heapLimitMb * 2 ** 20;
  const checks = {
    noDisallowed: log.disallowedRequests === 0,
    allAllowed: log.pagesDistinct === expectedPages,
    finished,
  };
  const skippedRules = result?.heed?.skippedByReason?.rules ?? 0;
  const rows = [
    [
      'origins (distinct loopback addresses) / start URLs',
      `${fmt(config.origins)} / ${fmt(soak.startUrls)}`,
      '≥ 500',
      met(config.origins >= 500),
    ],
    [
      'allowed pages crawled (server log, distinct)',
      `${fmt(log.pagesDistinct)} of ${fmt(expectedPages)}`,
      'all, ≥ 50,000',
      met(checks.allAllowed && expectedPages >= 50_000),
    ],
    [
      'disallowed URLs fetched (server log)',
      `${fmt(log.disallowedRequests)} (${fmt(skippedRules)} disallowed links skipped by Heed)`,
      '0',
      met(checks.noDisallowed),
    ],
    ['page requests / failed requests', `${fmt(log.pageRequests)} / ${fmt(result?.requestsFailed)}`, '', 'info'],
    [
      'robots.txt fetches (server log) / per origin at most',
      `${fmt(log.robotsRequests)} / ${fmt(log.maxRobotsPerOrigin)}`,
      'one per origin',
      met(log.robotsRequests === config.origins),
    ],
    [
      'crawl time / pages per second',
      finished ? `${seconds(result.ms)} / ${pagesPerSecond.toFixed(1)}` : `did not finish (${run.outcome})`,
      '~5 min',
      'info',
    ],
    [
      'heap after the crawl (after GC, crawler and its in-memory queue still alive)',
      finished ? mb(result.heap.after) : '—',
      `≤ ${heapLimitMb} MiB`,
      met(heapOk),
    ],
    ['largest live heap during the crawl (GC every 15 s)', finished ? mb(result.heap.liveMax) : '—', '', 'info'],
    ["Heed's own retained heap (freed by closing plugin, manager, store)", finished ? mb(result.heap.heedRetained) : '—', '', 'info'],
    [
      'parsed robots.txt held (LRU `cacheSize`) / store records (`maxEntries`)',
      finished
        ? `${fmt(result.manager.cache.entries)} of ${fmt(soak.cacheSize)} / ${fmt(result.manager.storeEntries)} of ${fmt(soak.storeEntries)}`
        : '—',
      'within the bounds',
      met(finished && result.manager.cache.entries <= soak.cacheSize && result.manager.storeEntries <= soak.storeEntries),
    ],
  ];
  return { markdown: table(['measure', 'result', 'limit / target', 'met'], rows), checks, heapOk };
}

/**
 * Warm: median crawl time and CPU time of each variant, and their ratios to no robots handling. The
 * target is judged on CPU time: on a shared 2-core machine the wall clock of a CPU-bound crawl mostly
 * measures the other jobs, while the crawler's own CPU seconds measure what each variant costs.
 */
export function warmTable(warm, targetPercent) {
  const finished = (variant) => warm.runs[variant].filter((r) => r.outcome === 'finished').map((r) => r.result);
  const wall = (variant) => finished(variant).map((r) => r.ms);
  const cpu = (variant) => finished(variant).map((r) => r.cpuMs);
  const baseWall = median(wall('none'));
  const baseCpu = median(cpu('none'));
  const overhead = (median(cpu('heed')) / baseCpu - 1) * 100;
  const wallOverhead = (median(wall('heed')) / baseWall - 1) * 100;
  const list = (values) => values.map((t) => (t / 1000).toFixed(2)).join(', ');
  const rows = Object.keys(NAMES).map((variant) => {
    const m = median(cpu(variant));
    const w = median(wall(variant));
    const target = variant === 'heed' ? `≤ ${(1 + targetPercent / 100).toFixed(2)}×` : '';
    return [
      NAMES[variant],
      seconds(m),
      list(cpu(variant)),
      `${(m / baseCpu).toFixed(3)}×`,
      seconds(w),
      list(wall(variant)),
      `${(w / baseWall).toFixed(3)}×`,
      target,
      variant === 'heed' ? met(overhead <= targetPercent) : '',
    ];
  });
  const header = [
    'robots handling',
    'median CPU time',
    'rounds (CPU s)',
    'CPU vs none',
    'median wall time',
    'rounds (wall s)',
    'wall vs none',
    'target (CPU)',
    'met',
  ];
  return { markdown: table(header, rows), overhead, wallOverhead };
}

/** Cold: median time to the first N pages, or how far a variant got when it did not get there. */
export function coldTable(cold, options) {
  const base = median(cold.runs.none.filter((r) => r.outcome === 'stopped').map((r) => r.stoppedAt.ms));
  const rows = Object.keys(NAMES).map((variant) => {
    const runs = cold.runs[variant];
    const reached = runs.filter((r) => r.outcome === 'stopped');
    const robots = median(runs.map((r) => r.log.robotsRequests));
    if (reached.length * 2 <= runs.length) {
      const got = median(runs.map((r) => r.log.pageRequests));
      return [
        NAMES[variant],
        `did not reach ${fmt(options.stopAfterPages)} pages in ${options.timeoutMs / 1000} s (${fmt(got)} pages by then)`,
        runs.map((r) => r.outcome).join(', '),
        '—',
        fmt(robots),
      ];
    }
    const m = median(reached.map((r) => r.stoppedAt.ms));
    return [
      NAMES[variant],
      seconds(m),
      runs.map((r) => (r.outcome === 'stopped' ? (r.stoppedAt.ms / 1000).toFixed(2) : r.outcome)).join(', '),
      `${(m / base).toFixed(2)}×`,
      fmt(robots),
    ];
  });
  return table(
    [`robots handling`, `median time to ${fmt(options.stopAfterPages)} pages`, 'rounds (s)', 'vs none', 'robots.txt requests (median)'],
    rows,
  );
}

/** Unreachable: robots.txt fetches and pages crawled that should not have been, per variant. */
export function unreachableTable(results, options) {
  const rows = [];
  for (const result of results) {
    const what = result.mode === '503' ? 'answers 503' : 'never answers';
    for (const variant of Object.keys(NAMES)) {
      const runs = result.runs[variant];
      const finished = runs.filter((r) => r.outcome === 'finished');
      const ended =
        finished.length * 2 > runs.length
          ? `ended in ${seconds(median(finished.map((r) => r.result.ms)))}`
          : `did not finish in ${options.timeoutMs / 1000} s (${runs.map((r) => r.outcome).join(', ')})`;
      rows.push([
        `robots.txt ${what}`,
        NAMES[variant],
        fmt(median(runs.map((r) => r.log.robotsRequests))),
        `${fmt(median(runs.map((r) => r.log.pageRequests)))} of ${fmt(result.origins * result.pagesPerOrigin)}`,
        ended,
      ]);
    }
  }
  return table(["origins' robots.txt", 'robots handling', 'robots.txt requests (median)', 'pages wrongly crawled (median)', 'crawl'], rows);
}

/** Replaces (or appends) the crawl section of BENCHMARKS.md (or the section titled `title`). */
export function writeSection(file, body, title = SECTION_TITLE) {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(title);
  // Notes written by hand (what a profile showed, why a target is missed) stay across runs.
  const end = start === -1 ? -1 : current.indexOf('\n## ', start + 1);
  const old = start === -1 ? '' : current.slice(start, end === -1 ? undefined : end);
  const notesAt = old.indexOf(NOTES_TITLE);
  const notes = notesAt === -1 ? '' : `\n\n${old.slice(notesAt).trim()}`;
  const section = `${title}\n\n${body.trim()}${notes}\n`;
  let next;
  if (start === -1) next = `${current.trimEnd()}\n\n${section}`;
  else {
    next = current.slice(0, start) + section + (end === -1 ? '' : `\n${current.slice(end + 1)}`);
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}

/**
 * A variant's rounds, ms per page: each of them when they fit a table cell, else their range and the
 * range of their middle half.
 */
function roundsCell(ms) {
  if (ms.length <= 12) return ms.map((m) => m.toFixed(2)).join(', ');
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.round(q * (sorted.length - 1))].toFixed(2);
  return `${ms.length} rounds: ${at(0)}–${at(1)}, the middle half ${at(0.25)}–${at(0.75)}`;
}

/**
 * What the control (a second crawl without robots handling per round, the same code as `none`) says
 * of the run: the spread of its per-round ratios is the noise in every variant's ratio. From it, the
 * 95% half-width of a median of that many rounds (a median's standard error is about 1.25 times a
 * mean's) and the rounds that would narrow it to `target`'s margin. Undefined under two ratios.
 */
function controlOf(ratios, target) {
  if (ratios.length < 2) return undefined;
  const mean = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
  const sd = Math.sqrt(ratios.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (ratios.length - 1));
  const spreadOfMedian = 1.96 * 1.2533 * sd;
  return {
    median: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
    sd,
    halfWidth: spreadOfMedian / Math.sqrt(ratios.length),
    roundsForMargin: Math.ceil((spreadOfMedian / (target - 1)) ** 2),
  };
}

/**
 * The link-dense crawl: CPU per page of each variant, and its ratio to no robots handling taken per
 * round (each round's crawls ran back to back, so they shared the machine's load), median and spread
 * of those ratios. `target`: the highest ratio Heed may have. With the control (`none-again`, a second
 * crawl without robots handling per round): `control`, its ratios' median, spread and standard
 * deviation, the 95% half-width of a median of that many ratios and the rounds the target's margin
 * would need; `resolves`, whether that half-width is narrower than the margin (else no verdict at
 * that margin can be read from this run).
 */
export function denseTable(dense, target, abLabel = 'the build of `--ab`') {
  const perPage = (variant) =>
    (dense.runs[variant] ?? []).map((run) =>
      run.outcome === 'finished' && run.result.pages > 0 ? run.result.cpuMs / run.result.pages : NaN,
    );
  const base = perPage('none');
  const ratiosOf = (variant) =>
    perPage(variant)
      .map((ms, round) => ms / base[round])
      .filter(Number.isFinite);
  const names = Object.fromEntries(
    Object.entries({
      none: NAMES.none,
      'none-again': 'no robots handling, again (the control)',
      ...NAMES,
      'heed-base': `Heed, ${abLabel} (A/B)`,
      'heed-signed': 'Heed with `signature` (Web Bot Auth)',
    }).filter(([variant]) => dense.runs[variant]),
  );
  const ratios = Object.fromEntries(Object.keys(names).map((variant) => [variant, ratiosOf(variant)]));
  // A run of chosen variants (`--variants=`) may leave one side out: its half of the target is not judged.
  const heed = ratios.heed ? median(ratios.heed) : NaN;
  const crawlee = ratios.crawlee ? median(ratios.crawlee) : NaN;
  const met = heed <= target && !(heed > crawlee);
  const control = controlOf(ratios['none-again'] ?? [], target);
  // A verdict on a margin narrower than the control's half-width is the machine's, not the code's.
  const resolves = control ? control.halfWidth < target - 1 : undefined;
  const rows = Object.keys(names).map((variant) => {
    const ms = perPage(variant).filter(Number.isFinite);
    const r = ratios[variant];
    return [
      names[variant],
      `${median(ms).toFixed(2)} ms`,
      roundsCell(ms),
      variant === 'none' ? '1' : `${median(r).toFixed(3)}×`,
      variant === 'none' ? '' : `${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}`,
      variant === 'heed' ? `≤ ${target.toFixed(2)}× and ≤ Crawlee's` : '',
      variant === 'heed'
        ? `${met ? 'met' : '**not met**'}${resolves === false ? ` (this run knows it to ±${(control.halfWidth * 100).toFixed(1)}%)` : ''}`
        : '',
    ];
  });
  const header = [
    'robots handling',
    'median CPU per page',
    'rounds (ms per page)',
    'CPU vs none (median of rounds)',
    'spread',
    'target',
    'met',
  ];
  return { markdown: table(header, rows), heed, crawlee, met, control, resolves };
}

/**
 * The profiled crawls of the link-dense bench: per variant, what its robots handling itself spent
 * (attribution.mjs), per 1,000 pages and as a share of the crawl's CPU, the median over its crawls.
 * `heed`, `builtin`: the median shares; `heedAtOrBelow`: whether Heed's share is at most the built-in
 * check's (undefined without both).
 */
export function attributionTable(attribution, abLabel = 'the build of `--ab`') {
  const names = { ...NAMES, 'heed-base': `Heed, ${abLabel} (A/B)` };
  const perThousand = (crawl) => ((crawl.heed + crawl.builtin) * 1000) / crawl.pages;
  const share = (crawl) => (crawl.heed + crawl.builtin) / crawl.total;
  const variants = Object.keys(names).filter((variant) => attribution?.[variant]?.length);
  const rows = variants.map((variant) => {
    const crawls = attribution[variant];
    return [
      names[variant],
      `${(median(crawls.map(share)) * 100).toFixed(2)}%`,
      `${median(crawls.map(perThousand)).toFixed(0)} ms`,
      crawls.map((crawl) => perThousand(crawl).toFixed(0)).join(', '),
      `${(median(crawls.map((crawl) => crawl.gc / crawl.total)) * 100).toFixed(1)}%`,
    ];
  });
  const header = [
    'robots handling',
    'its share of the crawl’s CPU (median)',
    'its own CPU per 1,000 pages (median)',
    'crawls (ms)',
    'collector (all code)',
  ];
  // Ranked by share: a crawl that ran on a slower minute is slower in every part, its robots
  // handling included, so the share moves less than the milliseconds.
  const of = (variant, measure) => (attribution?.[variant]?.length ? median(attribution[variant].map(measure)) : undefined);
  const heed = of('heed', share);
  const builtin = of('crawlee', share);
  return {
    markdown: rows.length ? table(header, rows) : '',
    heed,
    builtin,
    heedMs: of('heed', perThousand),
    builtinMs: of('crawlee', perThousand),
    heedAtOrBelow: heed === undefined || builtin === undefined ? undefined : heed <= builtin,
  };
}
