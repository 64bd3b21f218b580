/**
 * The facts a crawler's disclosure states, as data: who it is, which robots.txt groups it obeys,
 * how Heed reads robots.txt and what each answer means, its pacing, the AI-usage signals it honours
 * and the records it keeps. `disclosure.json` is this object; the page and the feed are written
 * from it, so the three never say different things. Pure.
 */
import { createHash } from 'node:crypto';
import type { UsageCategory } from '@heed/parser';
import { READ_LIMIT } from '../args.js';
import type { ResolvedDisclose } from './options.js';

/** The version of `disclosure.json`'s shape; a reader checks it before reading the rest. */
export const DISCLOSURE_VERSION = 1;

/**
 * What a crawler on the plugin's own `RobotsManager` does, in numbers: `@heed/manager`'s defaults
 * (its reference, "Options" and "Status policy") and `@heed/crawlee`'s pause after a `429` or `503`
 * without a readable `Retry-After`. The packages' public API does not export them, and this command
 * keeps to it; test/cli/disclose.test.ts holds each one to the packages' own value, so a change
 * there fails a test instead of publishing a wrong page.
 */
export const CRAWLER_DEFAULTS = Object.freeze({
  maxBytes: READ_LIMIT,
  maxRedirects: 5,
  defaultTtlSecs: 86_400,
  minTtlSecs: 300,
  maxTtlSecs: 86_400,
  retryBaseSecs: 60,
  retryMaxSecs: 3_600,
  unreachableAllowAfterSecs: 30 * 86_400,
  retryAfterDefaultSecs: 5,
});

/** What the crawler does with a URL when robots.txt gives one answer or another. */
export type Outcome = 'rules' | 'allow-all' | 'disallow-all';

export interface UsageSignalFact {
  readonly signal: string;
  readonly where: string;
  /** The declared purposes the signal speaks for. */
  readonly purposes: readonly UsageCategory[];
  readonly spec: string;
}

/** `disclosure.json` without `generatedAt`: the content whose hash names a feed entry. */
export interface Disclosure {
  readonly version: typeof DISCLOSURE_VERSION;
  readonly userAgent: string;
  readonly productTokens: readonly string[];
  /** The robots.txt groups obeyed: those naming one of `productTokens`, and `*` only when none does. */
  readonly groups: readonly string[];
  readonly contact: string | null;
  readonly robotsTxt: {
    readonly standard: 'RFC 9309';
    /** Whose reading of the file, leniencies included. */
    readonly parser: 'google/robotstxt';
    readonly maxBytes: number;
    readonly maxRedirects: number;
    readonly cacheSecs: { readonly default: number; readonly min: number; readonly max: number };
    readonly onAnswer: {
      readonly '2xx': Outcome;
      readonly '4xx': Outcome;
      /** 429, which RFC 9309 leaves among the 4xx: a server asking to slow down, not saying it has no rules. */
      readonly tooManyRequests: Outcome;
      readonly '5xx': Outcome;
      readonly noAnswer: Outcome;
      readonly tooManyRedirects: Outcome;
    };
    /** While robots.txt is unreachable, the last copy that answered 2xx or 4xx decides. */
    readonly whileUnreachable: 'last-good-copy';
    readonly retrySecs: { readonly first: number; readonly max: number };
    /** Unreachable this long, with no good copy: everything allowed. */
    readonly allowAllAfterUnreachableSecs: number;
  };
  readonly crawlDelay: { readonly honoured: boolean; readonly maxSecs: number | null };
  readonly retryAfter: {
    readonly honoured: boolean;
    readonly statuses: readonly number[];
    readonly defaultSecs: number | null;
    readonly maxSecs: number | null;
  };
  readonly requests: {
    readonly identifyPages: boolean;
    readonly checkRedirects: boolean;
    readonly checkSendRequest: boolean;
    readonly blockSubresources: boolean;
    readonly metaRobots: boolean;
    readonly honorRelNofollow: boolean;
    readonly sitemaps: boolean;
  };
  readonly usage: {
    readonly purposes: readonly UsageCategory[];
    /** What a purpose nobody stated a preference for means; null without purposes. */
    readonly unknownUsage: 'allow' | 'disallow' | null;
    readonly signals: readonly UsageSignalFact[];
  };
  readonly records: boolean;
}

/**
 * Every AI-usage signal Heed reads once a purpose is declared, the categories each speaks for
 * (@heed/crawlee's reference, "What the crawl is for").
 */
const USAGE_SIGNALS: readonly { signal: string; where: string; categories: readonly UsageCategory[]; spec: string }[] = [
  {
    signal: 'Content-Usage',
    where: 'robots.txt',
    categories: ['train-ai', 'search', 'ai-use'],
    spec: 'draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-07',
  },
  {
    signal: 'Content-Signal',
    where: 'robots.txt',
    categories: ['train-ai', 'search', 'ai-input'],
    spec: 'draft-romm-aipref-contentsignals-00',
  },
  {
    signal: 'tdm-reservation',
    where: '/.well-known/tdmrep.json',
    categories: ['train-ai', 'ai-input'],
    spec: 'W3C TDMRep community group report (2024)',
  },
  { signal: 'Content-Usage', where: 'response header', categories: ['train-ai', 'search', 'ai-use'], spec: 'draft-ietf-aipref-attach-05' },
  {
    signal: 'Content-Signal',
    where: 'response header',
    categories: ['train-ai', 'search', 'ai-input'],
    spec: 'draft-romm-aipref-contentsignals-00',
  },
  { signal: 'tdm-reservation', where: 'response header', categories: ['train-ai', 'ai-input'], spec: 'W3C TDMRep' },
  { signal: 'tdm-reservation', where: '<meta> tag', categories: ['train-ai', 'ai-input'], spec: 'W3C TDMRep' },
  { signal: 'noai', where: 'X-Robots-Tag header or robots <meta> tag', categories: ['train-ai', 'ai-input'], spec: 'de-facto; no draft' },
  {
    signal: 'noimageai',
    where: 'X-Robots-Tag header or robots <meta> tag, of an image',
    categories: ['train-ai', 'ai-input'],
    spec: 'de-facto; no draft',
  },
];

export function disclosureOf(options: ResolvedDisclose): Disclosure {
  const productTokens = typeof options.productToken === 'string' ? [options.productToken] : [...options.productToken];
  const purposes = [...options.purposes];
  const pauses = options.crawlDelay;
  const d = CRAWLER_DEFAULTS;
  return {
    version: DISCLOSURE_VERSION,
    userAgent: options.userAgent,
    productTokens,
    groups: [...productTokens, '*'],
    contact: options.contact ?? null,
    robotsTxt: {
      standard: 'RFC 9309',
      parser: 'google/robotstxt',
      maxBytes: d.maxBytes,
      maxRedirects: d.maxRedirects,
      cacheSecs: { default: d.defaultTtlSecs, min: d.minTtlSecs, max: d.maxTtlSecs },
      onAnswer: {
        '2xx': 'rules',
        '4xx': 'allow-all',
        tooManyRequests: 'disallow-all',
        '5xx': 'disallow-all',
        noAnswer: 'disallow-all',
        tooManyRedirects: 'allow-all',
      },
      whileUnreachable: 'last-good-copy',
      retrySecs: { first: d.retryBaseSecs, max: d.retryMaxSecs },
      allowAllAfterUnreachableSecs: d.unreachableAllowAfterSecs,
    },
    // `crawlDelay: false` turns off both: the plugin then keeps neither Crawl-delay nor Retry-After pauses.
    crawlDelay: { honoured: pauses, maxSecs: pauses ? options.maxCrawlDelaySecs : null },
    retryAfter: {
      honoured: pauses,
      statuses: [429, 503],
      defaultSecs: pauses ? d.retryAfterDefaultSecs : null,
      maxSecs: pauses ? options.maxCrawlDelaySecs : null,
    },
    requests: {
      identifyPages: options.identifyPages,
      checkRedirects: options.checkRedirects,
      checkSendRequest: options.checkSendRequest,
      blockSubresources: options.blockSubresources,
      metaRobots: options.metaRobots,
      honorRelNofollow: options.honorRelNofollow,
      sitemaps: options.sitemaps,
    },
    usage: {
      purposes,
      unknownUsage: purposes.length === 0 ? null : options.unknownUsage,
      signals: USAGE_SIGNALS.flatMap(({ signal, where, categories, spec }) => {
        const speaksFor = purposes.filter((p) => categories.includes(p));
        return speaksFor.length === 0 ? [] : [{ signal, where, purposes: speaksFor, spec }];
      }),
    },
    records: options.records,
  };
}

/** The feed entry id of a disclosure: the SHA-256 of its JSON (without `generatedAt`). */
export function contentId(disclosure: Disclosure): string {
  return `urn:sha256:${createHash('sha256').update(JSON.stringify(disclosure)).digest('hex')}`;
}

/** `disclosure.json`: the facts and when they were written. */
export function disclosureJson(disclosure: Disclosure, generatedAt: string): string {
  const { version, ...facts } = disclosure;
  return `${JSON.stringify({ version, generatedAt, ...facts }, null, 2)}\n`;
}

/** The top-level fields two disclosures differ in (a `disclosure.json` read back: any JSON). */
export function changedFields(previous: unknown, next: Disclosure): string[] {
  if (typeof previous !== 'object' || previous === null || Array.isArray(previous)) return [];
  const before = previous as Record<string, unknown>;
  if (before.version !== next.version) return [];
  return Object.entries(next)
    .filter(([key, value]) => JSON.stringify(before[key]) !== JSON.stringify(value))
    .map(([key]) => key);
}
