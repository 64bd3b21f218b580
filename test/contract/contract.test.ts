/**
 * The contract suite: the README's guarantees as a table of door × crawler kind. Each kind crawls
 * one recording loopback site once, through every door that applies to it (doors.ts, kinds.ts);
 * then each cell is one test of what reached the server and which skips were reported. A cell that
 * Heed cannot hold is in gaps.ts, checked against what the crawl shows, and listed in the
 * reference's "What is not checked, and why" (`npm run docs` rewrites the list; an ordinary run
 * fails when the file is stale).
 *
 * It runs on the Crawlee release @heed/crawlee depends on. test/compat/contract.test.ts runs it
 * again on other releases, each installed with the packed Heed in a project outside the workspace:
 * it names the project in HEED_CONTRACT_CRAWLEE and aliases `@heed/*` to the project's packages
 * (test/compat/contract.config.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RobotsPlugin, UnsupportedCrawlerError, type SkipEvent } from '@heed/crawlee';
import { generateKeyPair } from '@heed/manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as heed } from '../cli/run-heed.js';
import { startSite, type Hit, type Site } from '../crawlee/site.js';
import { writeSection } from '../faults/fault-table.js';
import { has } from '../support/requirements.js';
import { ArrivalVerifier } from '../support/verify-signatures.js';
import { DOORS, ORIGINS, serveDoors, type CrawlRecord, type Door, type DoorSite, type Expectation, type SiteUrl } from './doors.js';
import { DOCS_END, DOCS_START, EVERY_DOOR, GAPS, gapOf, gapsOf, renderGaps, type Gap } from './gaps.js';
import { CRAWLEE_3_18, crawleeIn, KINDS, MAJORS, NEWEST_RELEASES, type CrawleeModules, type Kind, type Major } from './kinds.js';

/** Another release to run on: the project it is installed in, as test/compat/contract.test.ts sets it. */
const OTHER = process.env['HEED_CONTRACT_CRAWLEE'];
/** The Crawlee release the suite runs against. */
const MODULES: CrawleeModules =
  OTHER === undefined
    ? CRAWLEE_3_18
    : await (async () => {
        const { dir, release, major } = JSON.parse(OTHER) as { dir: string; release: string; major: Major };
        return crawleeIn(dir, release, major);
      })();
const MAJOR = MAJORS[MODULES.major];
const REFERENCE = fileURLToPath(new URL('../../packages/crawlee/docs/reference.md', import.meta.url));
const UA = 'HeedBot/1.0 (+https://heed.example/bot)';
const ALL_DOORS: readonly Door[] = DOORS;
const ALL_KINDS: readonly Kind[] = KINDS;
/** Crawls of the kinds Heed signs (option `signature`) are signed with this key; the site verifies every request. */
const KEY = generateKeyPair();
const SIGNATURE_AGENT = 'https://heed.example/.well-known/http-message-signatures-directory';

/** How long a page's handler waits for what the page requests while open (a popup, a worker's socket). */
// Ten times the longest a page's chain takes on an idle machine (the late requests' four in a row after
// a second: about 3 s): a busy machine stretches it past 10 s. A page whose requests came ends its wait
// then, so the bound costs only a page whose requests never come.
const OPEN_WAIT_MS = 30_000;
/** Then a little longer, so that a disallowed twin sent beside an allowed one has had its chance to arrive. */
const LEAK_WAIT_MS = 300;
/**
 * Crawls run two at a time: most of a crawl is waiting (crawl-delay, Retry-After, a browser
 * starting), and one at a time the suite would take twice as long. Lower bounds on time only, so
 * a busier machine cannot fail a cell.
 */
const CRAWLS_AT_ONCE = 2;

interface Crawl extends CrawlRecord {
  readonly server: Site;
  /** The site's verdict on each request's signature, given as it arrived. */
  readonly signatures: ArrivalVerifier;
  readonly failed: number;
  /** Whether the kind's control held (`undefined`: it has none). */
  readonly controlHeld: boolean | undefined;
  /** The crawl's records file and snapshot directory (option `records`). */
  readonly evidence: { readonly dir: string; readonly file: string; readonly snapshots: string };
}

const urlOf = (site: DoorSite, url: SiteUrl) => site[url.origin].url(url.path);
const hitsOf = (site: DoorSite, url: SiteUrl) => site[url.origin].count(url.path);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps a door's page open until what it asks for while open has come: its allowed twins
 * (`whileOpen`), and the skip events of what it asks for and is refused (a navigation, a hop, a
 * sub-resource): a browser short of CPU may ask for them well after the page's handler began, and
 * a page closed first would take them with it. `gapless`: the cell has no gap, whose requests may
 * never come.
 */
async function settle(site: DoorSite, expected: Expectation, skips: readonly SkipEvent[], gapless: boolean): Promise<void> {
  const deadline = Date.now() + OPEN_WAIT_MS;
  const reached = () => (expected.whileOpen ?? []).every((url) => hitsOf(site, url) > 0);
  const refusedInPage = gapless
    ? expected.blocked.filter((blocked) => blocked.stage === 'redirect' || blocked.stage === 'subresource')
    : [];
  const awaited = [...(expected.skippedWhileOpen ?? []), ...refusedInPage];
  const skipped = () => awaited.every((url) => skips.some((skip) => skip.url === urlOf(site, url)));
  while (Date.now() < deadline && !(reached() && skipped())) await pause(50);
  await pause(LEAK_WAIT_MS);
}

/** One crawl of `kind` through every door that applies to it. */
async function crawl(kind: Kind, modules: CrawleeModules): Promise<Crawl> {
  const signatures = await ArrivalVerifier.of(KEY.publicJwk, SIGNATURE_AGENT);
  const server = await startSite(ORIGINS.length, { onHit: signatures.observe });
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const dir = mkdtempSync(join(tmpdir(), `heed-contract-${kind.id}-`));
  const evidence = { dir, file: join(dir, 'records.jsonl'), snapshots: join(dir, 'snapshots') };
  try {
    const site = Object.fromEntries(ORIGINS.map((name, i) => [name, server.origins[i]!])) as DoorSite;
    serveDoors(site);
    const doors = ALL_DOORS.filter((door) => door.appliesTo(kind.traits));
    const doorOfPage = new Map(doors.flatMap((door) => (door.start ?? []).map((url) => [urlOf(site, url), door] as const)));
    const rewrites = new Map(
      doors.flatMap((door) => Object.entries(door.rewrites ?? {}).map(([path, to]) => [site.pages.url(path), urlOf(site, to)])),
    );
    const skips: SkipEvent[] = [];
    const notes = new Map<string, string>();
    const crawler = kind.build(
      {
        rewrite: (url) => rewrites.get(url),
        onPage: async (url, actions) => {
          const door = doorOfPage.get(url);
          if (door === undefined) return;
          await door.onPage?.[new URL(url).pathname]?.(actions, { site, note: (key, value) => void notes.set(key, value) });
          await settle(site, door.expect(kind.traits), skips, gapOf(door.id, kind.id, modules.release) === undefined);
        },
      },
      modules,
    );
    const queue = await MAJOR.requests(crawler);
    await queue.addRequests(doors.flatMap((door) => door.queued ?? []).map((url) => ({ url: urlOf(site, url) })));
    const plugin = await RobotsPlugin.attach(crawler, {
      userAgent: UA,
      sitemaps: {},
      logSummary: false,
      logSkips: false,
      onSkip: (event) => void skips.push(event),
      records: { file: evidence.file, snapshots: evidence.snapshots },
      signature: { key: KEY.privateJwk, signatureAgent: SIGNATURE_AGENT },
    });
    plugin.addSitemaps(doors.flatMap((door) => door.namedSitemaps ?? []).map((url) => urlOf(site, url)));
    // The origins that wait (Retry-After, crawl-delay) first, so their waits overlap the rest.
    const starts = doors.flatMap((door) => door.start ?? []).sort((x, y) => Number(x.origin === 'pages') - Number(y.origin === 'pages'));
    const urlLists = doors.flatMap((door) => door.urlLists ?? []).map((url) => ({ requestsFromUrl: urlOf(site, url) }));
    await crawler.run([...starts.map((url) => urlOf(site, url)), ...urlLists]);
    await plugin.close();
    const stampSlackMs = stalls.max / 1e6;
    return {
      server,
      signatures,
      site,
      skips,
      notes,
      stampSlackMs,
      // got's timings say when a page left (Crawlee 3's HTTP clients); a browser's and Impit's do not.
      sendTimeKnown: MODULES.major === 3 && !kind.traits.browser,
      failed: MAJOR.state(crawler).requestsFailed,
      controlHeld: kind.control?.holds(crawler, modules),
      evidence,
    };
  } catch (error) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    stalls.disable();
  }
}

/** The URLs of the doors `gaps` name that apply to `kind` (every door of it, for a gap of the kind itself). */
function gapDoorUrls(gaps: readonly Gap[], kind: Kind): SiteUrl[] {
  const doors = new Set<string>(gaps.map((gap) => gap.door));
  return ALL_DOORS.filter((door) => (doors.has(door.id) || doors.has(EVERY_DOOR)) && door.appliesTo(kind.traits)).flatMap((door) => [
    ...door.expect(kind.traits).reached,
    ...door.expect(kind.traits).blocked,
  ]);
}

/** Whether Heed reported `url` skipped (under any scheme: ws, http). */
function skipped(url: SiteUrl, run: Crawl): boolean {
  return run.skips.some((skip) => {
    const at = new URL(skip.url);
    return at.port === new URL(run.site[url.origin].origin).port && at.pathname + at.search === url.path;
  });
}

/** Whether none of `blocked` was seen: neither received by the site nor reported as skipped. */
function unseen(blocked: readonly SiteUrl[], run: Crawl): boolean {
  return blocked.every((url) => hitsOf(run.site, url) === 0 && !skipped(url, run));
}

/** Checks one cell: the door's controls reached the server, its disallowed URLs did not (a gap's still do), each skip was reported. */
function checkCell(door: Door, kind: Kind, run: Crawl): void {
  const expected = door.expect(kind.traits);
  const gap = gapOf(door.id, kind.id, MODULES.release);
  // A gap whose requests may never leave: only what must not happen is required.
  if (gap?.stalls !== true && !(gap?.stallsUnseen === true && unseen(expected.blocked, run)))
    for (const url of expected.reached)
      expect(hitsOf(run.site, url), `${url.path}, the allowed twin, reached the server`).toBeGreaterThan(0);
  for (const blocked of expected.blocked) {
    if (gap?.reaches.includes(blocked.path)) {
      // A race's leak comes and goes: nothing to require of it either way.
      if (gap.intermittent) continue;
      expect(
        hitsOf(run.site, blocked),
        `${blocked.path} no longer reaches the server: remove the gap from test/contract/gaps.ts`,
      ).toBeGreaterThan(0);
      continue;
    }
    expect(hitsOf(run.site, blocked), `${blocked.path} reached the server`).toBe(0);
    if (blocked.stage !== undefined && gap?.stalls !== true) {
      const stages = run.skips.filter((event) => event.url === urlOf(run.site, blocked)).map((event) => event.stage);
      expect(stages, `skip events of ${blocked.path}`).toContain(blocked.stage);
    }
  }
  // A gap of the door's own promise (timing) is what the gap says cannot be kept.
  if (gap === undefined) door.check?.(run, kind.traits);
}

/** Why `kind` does not apply on the release the suite runs on, if it does not. */
const absent = (kind: Kind) =>
  kind.absentOn?.[MODULES.release] ?? (NEWEST_RELEASES.includes(MODULES.release) ? undefined : kind.newestOnly);
for (const kind of ALL_KINDS.filter(absent)) console.log(`SKIPPING ${kind.name} on Crawlee ${MODULES.release}: ${absent(kind)}`);
const refused = ALL_KINDS.filter((kind) => kind.refusedOn?.includes(MODULES.release));
describe.skipIf(refused.length === 0)(`crawlers attach() refuses on Crawlee ${MODULES.release}`, () => {
  it.each(refused.map((kind) => [kind.name, kind] as const))('%s: attach() throws UnsupportedCrawlerError', async (_name, kind) => {
    const crawler = kind.build({ onPage: async () => {}, rewrite: () => undefined }, MODULES);
    await expect(RobotsPlugin.attach(crawler, { userAgent: UA, sitemaps: false })).rejects.toBeInstanceOf(UnsupportedCrawlerError);
  });
});
/** `HEED_CONTRACT_KINDS=playwright,puppeteer`: only these kinds crawl (a filtered run crawls no more than it checks). */
const only = process.env['HEED_CONTRACT_KINDS']?.split(',').map((id) => id.trim());
const runnable = ALL_KINDS.filter(
  (kind) =>
    (only === undefined || only.includes(kind.id)) &&
    absent(kind) === undefined &&
    (!kind.needsChromium || has('chromium', `test/contract/contract.test.ts, ${kind.name}`)),
);
const crawls = new Map<string, Promise<Crawl>>();
/** Kinds whose tests wait for their crawl, in the order they asked: crawled before the others. */
const asked: Kind[] = [];
let closing = false;

/**
 * The crawl of `kind` once it has ended. The first kind to ask starts the crawls of every kind,
 * `CRAWLS_AT_ONCE` at a time: those asked for first, then the browser kinds (they take longest, and
 * the others fill the place beside them).
 */
async function crawlOf(kind: Kind): Promise<Crawl> {
  asked.push(kind);
  if (asked.length === 1) for (let i = 0; i < CRAWLS_AT_ONCE; i++) void crawlInTurn();
  while (!crawls.has(kind.id)) await pause(50);
  return crawls.get(kind.id)!;
}

async function crawlInTurn(): Promise<void> {
  const longestFirst = [...runnable].sort((x, y) => Number(y.needsChromium) - Number(x.needsChromium));
  for (;;) {
    const kind = [...asked, ...longestFirst].find((k) => !crawls.has(k.id));
    if (kind === undefined || closing) return;
    const started = crawl(kind, MODULES);
    crawls.set(kind.id, started);
    // Its rejection is the kind's own beforeAll's to report.
    await started.catch(() => {});
  }
}

afterAll(async () => {
  closing = true;
  for (const started of crawls.values()) {
    const run = await started.catch(() => undefined);
    await run?.server.close();
    if (run) rmSync(run.evidence.dir, { recursive: true, force: true });
  }
});

for (const kind of ALL_KINDS) {
  describe.skipIf(!runnable.includes(kind))(`${kind.name} on Crawlee ${MODULES.release}`, () => {
    let run: Crawl;

    beforeAll(async () => {
      run = await crawlOf(kind);
    }, 300_000);

    for (const door of ALL_DOORS.filter((d) => d.appliesTo(kind.traits))) {
      const gap = gapOf(door.id, kind.id, MODULES.release);
      it(`${door.id}${gap === undefined ? '' : ' (a gap)'}: ${door.title}`, () => checkCell(door, kind, run));
    }

    if (kind.control !== undefined) {
      const { control } = kind;
      const gap = gapOf(EVERY_DOOR, kind.id, MODULES.release);
      it(`${control.title}${gap === undefined ? '' : ' (a gap)'}`, () => {
        expect(run.controlHeld, gap === undefined ? control.title : 'it does now: remove the gap from test/contract/gaps.ts').toBe(
          gap === undefined,
        );
      });
    }

    it('records: every request the site saw has its record, and the records audit clean', async () => {
      const left = new Set(
        readFileSync(run.evidence.file, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as { url: string; allowed: boolean })
          .filter((record) => record.allowed)
          .map((record) => record.url),
      );
      // What Heed does not see it cannot record: the doors of the kind's gaps, and its own robots.txt and tdmrep.json (kept as
      // snapshots). And Chromium's own /favicon.ico under Playwright: the browser asks for it outside page.route(), so no
      // checkpoint sees it (the site's rules are not consulted for it either; it is never a page of the crawl).
      const unseen = new Set(gapDoorUrls(gapsOf(kind.id, MODULES.release), kind).map((url) => urlOf(run.site, url)));
      const unrecorded = ORIGINS.flatMap((name) => run.site[name].hits.map((hit) => run.site[name].url(hit.path))).filter(
        (url) => !left.has(url) && !unseen.has(url) && !/\/robots\.txt$|\/\.well-known\/tdmrep\.json$|\/favicon\.ico$/.test(url),
      );
      expect(unrecorded).toEqual([]);
      const audit = await heed(['audit', run.evidence.file, '--snapshots', run.evidence.snapshots]);
      expect(audit.stdout).toContain('Clean');
      expect(audit.code).toBe(0);
    });

    it("signed: every request the site saw verifies (Web Bot Auth), Heed's own fetches included", async () => {
      const hits = ORIGINS.flatMap((name) => run.site[name].hits);
      // What no client lets Heed sign: the WebSocket handshakes of the kind's gaps (Heed sees none),
      // and a page's that connected before Playwright's WebSocket route was in place (the race of a
      // crawl's first pages, which lets /private/ws through: a gap of the websocket door); and
      // Chromium's check for an update of a service worker's script, which it sends (`Service-Worker:
      // script`, the script itself its referrer) past the DevTools sessions Heed holds. The crawlee
      // reference names them. jsdom's page sockets are signed.
      const signsPageSockets = (kind.traits.browser || kind.traits.scripts) && !hits.some((hit) => hit.path === '/private/ws');
      // A gap's door goes unsigned in a run where Heed did not see its disallowed socket: always for a lasting gap, in
      // some runs for a race's.
      const missed = gapsOf(kind.id, MODULES.release).filter(
        (gap) =>
          gap.condition === undefined &&
          !ALL_DOORS.some((door) => door.id === gap.door && door.expect(kind.traits).blocked.some((url) => skipped(url, run))),
      );
      const gapSockets = new Set(gapDoorUrls(missed, kind).map((url) => url.path));
      const updateCheck = (hit: Hit) =>
        kind.traits.browser && hit.headers['service-worker'] === 'script' && hit.headers.referer?.endsWith(hit.path) === true;
      const unsignable = (hit: Hit) =>
        (hit.headers.upgrade?.toLowerCase() === 'websocket' && (!signsPageSockets || gapSockets.has(hit.path))) || updateCheck(hit);
      const signable = hits.filter((hit) => !unsignable(hit));
      expect(signable.length).toBeGreaterThan(0);
      const failed = await run.signatures.unverified(signable);
      expect(failed, `unsigned or unverified: ${failed.join('; ')}`).toEqual([]);
    });

    it('no disallowed URL reaches any origin but those of its gaps, and no request fails', () => {
      const gapLeaks = gapsOf(kind.id, MODULES.release).flatMap((gap) => gap.reaches);
      const leaks = ORIGINS.flatMap((name) => run.site[name].paths().filter((path) => path.startsWith('/private')));
      expect(leaks.filter((path) => !gapLeaks.includes(path))).toEqual([]);
      expect(run.failed).toBe(0);
    });
  });
}

describe('the gaps', () => {
  it('each names a door that applies to its kind, or the kind itself when it has a control', () => {
    for (const gap of GAPS) {
      const kind = ALL_KINDS.find((k) => k.id === gap.kind)!;
      const applies =
        gap.door === EVERY_DOOR ? kind.control !== undefined : ALL_DOORS.find((d) => d.id === gap.door)!.appliesTo(kind.traits);
      expect(applies, `${gap.door} on ${gap.kind}`).toBe(true);
    }
  });

  // The list is documentation generated from gaps.ts: `npm run docs` rewrites it; an ordinary run
  // only checks it, so no test writes a tracked file and a stale list fails here. It describes the
  // release @heed/crawlee depends on: a run on another release leaves it to the ordinary run.
  it.skipIf(OTHER !== undefined)(
    'are the list of "What is not checked, and why" in the crawlee reference (npm run docs rewrites it)',
    () => {
      const generated = renderGaps();
      if (process.env.HEED_WRITE_DOCS === '1') {
        writeSection(REFERENCE, generated, { start: DOCS_START, end: DOCS_END });
        return;
      }
      const text = readFileSync(REFERENCE, 'utf8');
      const start = text.indexOf(DOCS_START);
      const end = text.indexOf(DOCS_END);
      expect(start, `${DOCS_START} in packages/crawlee/docs/reference.md`).toBeGreaterThanOrEqual(0);
      expect(text.slice(start + DOCS_START.length, end).trim(), 'packages/crawlee/docs/reference.md is stale: run `npm run docs`').toBe(
        generated,
      );
    },
  );
});
