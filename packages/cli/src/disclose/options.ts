/**
 * What `heed disclose` is told about a crawler: the options of `RobotsPlugin.attach()` that change
 * what a site sees of it, under the plugin's names, plus `contact`. They come as flags or as a JSON
 * file (`--config`), and both are read by this one table, so a value the plugin would refuse is
 * refused here with the same words. The user-agent and product tokens are checked by the manager's
 * own `checkUserAgent`, as the plugin checks them; the checks that live only in `@heed/crawlee`
 * (which the command line does not depend on) are restated as their fields here, with the plugin's
 * bounds.
 */
import { checkUserAgent } from '@heed/manager';
import {
  defineOptions,
  describeValue,
  InvalidOptionsError,
  option,
  USAGE_CATEGORIES,
  type Fail,
  type OptionsInput,
  type ProductTokens,
  type ResolvedOptions,
} from '@heed/parser';

const WHERE = 'heed disclose';

/** The plugin's bound on `maxCrawlDelaySecs`: one day. */
const MAX_CRAWL_DELAY_SECS = 86_400;

const DISCLOSE_OPTIONS = defineOptions(
  WHERE,
  {
    /** The crawler's `User-Agent` header, as given to the plugin. Required. */
    userAgent: option.custom({ check: checkUserAgentText }),
    /**
     * The product token(s) robots.txt groups are matched by, when not the first token of `userAgent`.
     * @default the product token of `userAgent`
     */
    productToken: option.custom<ProductTokens | undefined>({ default: undefined, check: (value) => value as ProductTokens }),
    /**
     * Where site owners reach the operator: an `https://` (or `http://`) page or a `mailto:` address.
     * @default the `+https://…` URL of `userAgent`, when it has one
     */
    contact: option.custom<string | undefined>({ default: undefined, check: checkContact }),
    /**
     * What the crawl is for: `train-ai`, `search`, `ai-input`, `ai-use`.
     * @default none
     */
    purposes: option.list({
      values: USAGE_CATEGORIES,
      item: 'usage category',
      items: 'usage categories',
      example: `e.g. "purposes": ["train-ai"] (known: ${USAGE_CATEGORIES.map((c) => `"${c}"`).join(', ')})`,
    }),
    /** @default `'allow'` */
    unknownUsage: option.choice({ default: 'allow', values: ['allow', 'disallow'] }),
    /** @default `true` */
    crawlDelay: option.boolean({ default: true }),
    /** @default `60` */
    maxCrawlDelaySecs: option.number({ default: 60, min: 0, max: MAX_CRAWL_DELAY_SECS, unit: 'seconds', why: 'one day' }),
    /** @default `true` */
    checkRedirects: option.boolean({ default: true }),
    /** @default `true` */
    checkSendRequest: option.boolean({ default: true }),
    /** @default `true` */
    blockSubresources: option.boolean({ default: true }),
    /** @default `true` */
    identifyPages: option.boolean({ default: true }),
    /** @default `true` */
    metaRobots: option.boolean({ default: true }),
    /** @default `false` */
    honorRelNofollow: option.boolean({ default: false }),
    /**
     * Whether the crawl reads the `Sitemap:` lines of robots.txt (the plugin's `sitemaps`, on unless `false`).
     * @default `true`
     */
    sitemaps: option.boolean({ default: true }),
    /**
     * Whether the crawl keeps records (the plugin's `records`: on when it is an object).
     * @default `false`
     */
    records: option.boolean({ default: false }),
  },
  { example: '{ "userAgent": "MyBot/1.0 (+https://example.com/bot)" }' },
);

/** The options `heed disclose` reads, as a `--config` file holds them. */
export type DiscloseOptions = OptionsInput<typeof DISCLOSE_OPTIONS>;

/** The options with every default filled in, the product token(s) as the crawler matches them. */
export interface ResolvedDisclose extends Omit<ResolvedOptions<typeof DISCLOSE_OPTIONS>, 'userAgent' | 'productToken' | 'contact'> {
  readonly userAgent: string;
  readonly productToken: ProductTokens;
  readonly contact: string | undefined;
}

/** Checks `input` and fills in the defaults. Throws `InvalidOptionsError` naming the first fault. */
export function resolveDisclose(input: unknown): ResolvedDisclose {
  const resolved = DISCLOSE_OPTIONS.resolve(input);
  const identity = checkUserAgent(resolved.userAgent, resolved.productToken);
  if (!identity.ok) throw new InvalidOptionsError(identity.option, identity.problem, WHERE);
  return {
    ...resolved,
    userAgent: resolved.userAgent,
    productToken: identity.productToken,
    contact: resolved.contact ?? contactOf(resolved.userAgent),
  };
}

/** `userAgent` is a string; what the string may be is the manager's rule, checked with `productToken`. */
function checkUserAgentText(value: unknown, _name: string, fail: Fail): string {
  if (typeof value === 'string') return value;
  const identity = checkUserAgent(value);
  return fail(identity.ok ? 'must be a string.' : identity.problem);
}

const CONTACT_EXAMPLE = 'e.g. "https://example.com/bot" or "mailto:bots@example.com"';

/** An http(s) page or a mailto: address, as the URL parser writes it (the page links to it). */
function checkContact(value: unknown, _name: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return fail(`expected a URL or a mailto: address, ${CONTACT_EXAMPLE}; got ${describeValue(value)}.`);
  // The URL parser drops tabs and line breaks without a word: refused, so the link is what was typed.
  if (/[\s\x00-\x1f\x7f-\x9f]/.test(value)) return fail(`contains white space or a control character; ${CONTACT_EXAMPLE}.`);
  const url = parsedUrl(value);
  if (url === undefined) return fail(`${describeValue(value)} is not an absolute URL; ${CONTACT_EXAMPLE}.`);
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  if (url.protocol === 'mailto:' && /^[^@]+@[^@]+$/.test(decodeURIComponentSafe(url.pathname))) return url.href;
  return fail(`${describeValue(value)} is neither an http(s) page nor a mailto: address with one @; ${CONTACT_EXAMPLE}.`);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The `+https://…` URL a user-agent carries by convention (`MyBot/1.0 (+https://example.com/bot)`), if any. */
function contactOf(userAgent: string): string | undefined {
  const candidate = /\+(https?:\/\/[^\s;)]+)/.exec(userAgent)?.[1];
  return candidate === undefined ? undefined : parsedUrl(candidate)?.href;
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
