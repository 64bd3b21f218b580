/**
 * The cells of the contract suite that Heed cannot hold: a door that applies to a crawler kind where
 * a disallowed URL still leaves (or a politeness promise is not kept), and why. The one list: the
 * suite checks every other applicable cell as holding and each gap here against what the crawl
 * shows, and the bullet list of "What is not checked, and why" in packages/crawlee/docs/reference.md
 * is generated from it (`npm run docs`).
 */
import { DOORS, type DoorId } from './doors.js';
import { KINDS, type Kind, type KindId } from './kinds.js';

/** A gap of the kind itself rather than of one door: the kind's control fails (see `Kind.control`). */
export const EVERY_DOOR = 'every door';

export interface Gap {
  readonly door: DoorId | typeof EVERY_DOOR;
  readonly kind: KindId;
  /**
   * Only under this condition, which the suite's crawl does not meet (an older release, a remote
   * browser): the suite's cell holds, and is checked as holding.
   */
  readonly condition?: string;
  /**
   * Only on these Crawlee releases (as `CrawleeModules.release` names them: `3.13.0`, `4.0.0-rc.0`,
   * `4-next`), where test/compat/contract.test.ts runs the suite; not in the reference, which
   * describes the release @heed/crawlee depends on. Without it, on every release.
   */
  readonly releases?: readonly string[];
  /** Why, as the reference says it. */
  readonly reason: string;
  /**
   * The disallowed paths the suite's crawl sees reach the server at this cell: checked on every run,
   * so that a gap that closes is noticed. Empty for a gap of timing, which only a bound on time
   * could show (the suite sets none), and for a conditional gap.
   */
  readonly reaches: readonly string[];
  /** `reaches` happens in some runs only (a race): tolerated, not required. */
  readonly intermittent?: true;
  /**
   * The door's requests, allowed or not, may never leave at all in some runs (the browser library
   * holds them): its allowed twins and skip reports are not required, only that nothing disallowed
   * reached the server.
   */
  readonly stalls?: true;
  /**
   * In some runs the door's requests never reach Heed nor the server (the race that leaves a page
   * Playwright's WebSocket mock without its binding holds them): when no disallowed one was seen,
   * neither reported as skipped nor received, its allowed twins are not required. A run where Heed
   * saw one still requires them.
   */
  readonly stallsUnseen?: true;
  /** What was seen, for a gap that breaks a guarantee the README makes (not rendered in the reference). */
  readonly evidence?: string;
}

const PLAYWRIGHT_CONTEXT_RACE =
  'sometimes, on the first pages of a crawl. A page the browser had already opened when the plugin installed its browser ' +
  "context's `routeWebSocket()` (the pages a crawl opens together at its start) may load without the script that routes " +
  'its WebSockets, which then connect unchecked.';
const PLAYWRIGHT_CONTEXT_RACE_EVIDENCE =
  'In about 1 contract run in 10 (PlaywrightCrawler and the adaptive one alike), /private/ws reached the server with no ' +
  'skip event. A crawl of 40 pages that each open a WebSocket, 8 at a time: in 1 run of 3 a page of the first 8 had no ' +
  "`__pwWebSocketDispatch` (Playwright's WebSocket mock), so its `WebSocket` was the native one and the disallowed one " +
  'connected; in others first-batch pages had the mock without its binding, and neither socket ever left (a CI run on a ' +
  'busy machine: /ok/ws never came within 30 s, and nothing was skipped). With the first batch held 3 s after the first ' +
  "page's install, 3 runs of 4 still leaked from a first-batch page; no page opened later ever did.";

/** The Crawlee 4 builds test/compat/contract.test.ts runs the suite on. */
const CRAWLEE_4 = ['4.0.0-rc.0', '4-next'];
/** The Puppeteer that test/compat/consumer.ts installs beside 3.13.0 and the Crawlee 4 builds. */
const PUPPETEER_24_RELEASES = ['3.13.0', ...CRAWLEE_4];
const PUPPETEER_24_WORKERS =
  "a worker's requests may hang: Puppeteer 24's request interception (yours, or Heed's where the browser target cannot be " +
  'reached) can hold them for good; Puppeteer 25 does not.';
const PUPPETEER_24_WORKERS_EVIDENCE =
  "Any interception does it (Heed's checks no longer turn it on where the browser target is reached). A worker fetching three URLs in turn, 30 pages: " +
  "Puppeteer 24.43.1 with a bare `request.continue()` handler and no Heed, 9 pages' workers hung; without interception, " +
  'none; Puppeteer 25.16.0 with the same handler, none. Nothing disallowed leaves.';
const URL_LIST_ON_4 =
  "on Crawlee 4, the crawler's `run()` and `addRequests()` drop a `requestsFromUrl` source themselves, Heed attached or " +
  'not: each item becomes request options, and a source has no `url`, so it is dropped as an invalid URL before any queue ' +
  'sees it. Its file is never fetched and the URLs it lists are not crawled (nothing disallowed leaves either).';
const URL_LIST_ON_4_EVIDENCE =
  'A CheerioCrawler of Crawlee 4.0.0-rc.0 without Heed, `run([{ requestsFromUrl }])` against a loopback site: the site ' +
  'saw no request and no page was handled. `BasicCrawler.addRequests()` passes each item to `createRequestOptions()`, ' +
  "which drops an item without a `url` (master at 69a824b the same). Use the request queue's own `addRequests()`.";
export const GAPS: readonly Gap[] = [
  ...(['basic', 'http', 'cheerio', 'jsdom', 'playwright', 'puppeteer', 'file-download'] as const).map((kind): Gap => ({
    door: 'url-list',
    kind,
    releases: CRAWLEE_4,
    reason: URL_LIST_ON_4,
    evidence: URL_LIST_ON_4_EVIDENCE,
    reaches: [],
    stalls: true,
  })),
  {
    door: 'websocket',
    kind: 'playwright',
    condition: 'Playwright before 1.48',
    reason:
      'a WebSocket to a disallowed URL reaches it: `context.routeWebSocket()`, which closes a disallowed ' +
      'WebSocket before it connects, arrived in 1.48.',
    reaches: [],
  },
  {
    door: 'websocket',
    kind: 'playwright',
    reason: PLAYWRIGHT_CONTEXT_RACE,
    reaches: ['/private/ws'],
    intermittent: true,
    stallsUnseen: true,
    evidence: PLAYWRIGHT_CONTEXT_RACE_EVIDENCE,
  },
  {
    door: 'websocket',
    kind: 'adaptive-browser',
    reason: PLAYWRIGHT_CONTEXT_RACE,
    reaches: ['/private/ws'],
    intermittent: true,
    stallsUnseen: true,
    evidence: PLAYWRIGHT_CONTEXT_RACE_EVIDENCE,
  },
  {
    door: 'popup',
    kind: 'puppeteer',
    condition: 'a browser whose browser target cannot be reached, as a remote endpoint that refuses it',
    reason: 'popups and workers go unchecked; the plugin logs a warning, and the crawled pages are still checked.',
    reaches: [],
  },
  ...(['puppeteer-user-interception', 'puppeteer-crawlee-interception'] as const).map((kind) => ({
    door: 'redirect' as const,
    kind,
    condition: 'a browser whose browser target cannot be reached, as a remote endpoint that refuses it',
    reason:
      "Heed falls back to Puppeteer's request interception of each crawled page, where a listener of yours that " +
      "continues a request settles it before Heed's check: the page's redirect hops and script navigations go unchecked.",
    reaches: [],
  })),
  {
    door: 'worker-fetch',
    kind: 'puppeteer',
    condition: 'Puppeteer 24',
    reason: PUPPETEER_24_WORKERS,
    reaches: [],
  },
  {
    door: 'worker-fetch',
    kind: 'puppeteer',
    releases: PUPPETEER_24_RELEASES,
    reason: PUPPETEER_24_WORKERS,
    reaches: [],
    stalls: true,
    evidence: PUPPETEER_24_WORKERS_EVIDENCE,
  },
];

/** Whether `gap` is one of the suite's crawl on `release` (a conditional one is not). */
const inCrawl = (gap: Gap, release: string) => gap.condition === undefined && (gap.releases?.includes(release) ?? true);

/** The gaps of kind `kind` in the suite's crawl on `release` (a variant has those of the kind it varies). */
export function gapsOf(kind: string, release: string): Gap[] {
  const base = (KINDS as readonly Kind[]).find((k) => k.id === kind)?.variantOf;
  return GAPS.filter((gap) => (gap.kind === kind || gap.kind === base) && inCrawl(gap, release));
}

/** The gap of a cell in the suite's crawl on `release`, if it has one. */
export function gapOf(door: string, kind: string, release: string): Gap | undefined {
  return gapsOf(kind, release).find((gap) => gap.door === door);
}

export const DOCS_START = '<!-- contract-gaps:start -->';
export const DOCS_END = '<!-- contract-gaps:end -->';

/** The width the reference's prose is wrapped at. */
const WIDTH = 100;

/** `text` as a markdown bullet, wrapped at {@link WIDTH} with its continuation lines indented. */
function bullet(text: string): string {
  const lines: string[] = [];
  let line = '-';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > WIDTH && line.trim() !== '-') {
      lines.push(line);
      line = ' ';
    }
    line += ` ${word}`;
  }
  return [...lines, line].join('\n');
}

/** The bullet list of the reference's "What is not checked, and why": one bullet per gap, in the order of the kinds and doors tables. */
export function renderGaps(): string {
  const kindIndex = (gap: Gap) => KINDS.findIndex((k) => k.id === gap.kind);
  const doorIndex = (gap: Gap) => DOORS.findIndex((d) => d.id === gap.door);
  const ordered = GAPS.filter((gap) => gap.releases === undefined).sort(
    (x, y) => kindIndex(x) - kindIndex(y) || doorIndex(x) - doorIndex(y),
  );
  const bullets = ordered.map((gap) => {
    const kind = KINDS[kindIndex(gap)]!;
    const when = gap.condition === undefined ? '' : ` (${gap.condition})`;
    const door = gap.door === EVERY_DOOR ? '' : `, ${DOORS[doorIndex(gap)]!.title}`;
    return bullet(`${kind.name}${when}${door}: ${gap.reason}`);
  });
  return ['<!-- Generated from test/contract/gaps.ts; edit it there, then run `npm run docs`. -->', '', ...bullets].join('\n');
}
