/**
 * Robots meta tags and the `X-Robots-Tag` header — the page-level companion of robots.txt
 * (Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications").
 *
 * Sources: `<meta name="robots" content="…">` and `X-Robots-Tag: …` apply to every crawler;
 * `<meta name="<token>">` and `X-Robots-Tag: <token>: …` only to the crawler with that product token;
 * a crawler known by several tokens (`['mybot-news', 'mybot']`) reads the tags of each as its own.
 * Within one level the most restrictive value wins (`index` and `noindex` → `noindex`); between the
 * levels the more specific one wins for every directive it mentions (`robots: noindex` with
 * `heedbot: index` → indexed by HeedBot). `none` is `noindex, nofollow`; `all` is `index, follow`.
 * Pure functions, no I/O.
 */
import type { ProductTokens } from '@heed/parser';

/** The directives of a page for one crawler, as the request handler sees them. */
export interface RobotsDirectives {
  /** Do not store/index the page. */
  readonly noindex: boolean;
  /** Do not follow the page's links: the plugin keeps them out of the queue. */
  readonly nofollow: boolean;
  readonly noarchive: boolean;
  readonly nosnippet: boolean;
  readonly noimageindex: boolean;
  readonly notranslate: boolean;
  readonly indexifembedded: boolean;
  /** `max-snippet:N` (−1: no limit). */
  readonly maxSnippet?: number;
  /** `max-image-preview:none|standard|large`. */
  readonly maxImagePreview?: 'none' | 'standard' | 'large';
  /** `max-video-preview:N` (−1: no limit). */
  readonly maxVideoPreview?: number;
  /** `unavailable_after:<date>` as written. */
  readonly unavailableAfter?: string;
  /** Every directive that applied, lower-cased, in the form `name` or `name:value`. */
  readonly raw: readonly string[];
  /** Where directives came from: `meta` tags, the `header`, both, or neither. */
  readonly sources: readonly ('meta' | 'header')[];
}

/** A `<meta name=… content=…>` pair. */
export interface MetaTag {
  readonly name: string;
  readonly content: string;
}

/** Directives of a page with nothing said: everything allowed. */
export const NO_DIRECTIVES: RobotsDirectives = Object.freeze({
  noindex: false,
  nofollow: false,
  noarchive: false,
  nosnippet: false,
  noimageindex: false,
  notranslate: false,
  indexifembedded: false,
  raw: Object.freeze([]),
  sources: Object.freeze([]),
});

/** Directives that carry a value after a colon, so `name: value` is not a user-agent prefix. */
const VALUED = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

/** Directive values found at one level (generic or specific). `undefined`: not mentioned. */
interface Level {
  index?: boolean;
  follow?: boolean;
  flags: Set<string>;
  values: Map<string, string>;
  raw: string[];
}

/**
 * The directives for the crawler with product token `token` (or any of a list of tokens: the tags
 * naming each of them form the one specific level, most restrictive value winning as within any
 * level), from the page's robots meta tags and its `X-Robots-Tag` header values (as Node gives
 * them: a string, several joined with `, `, or an array).
 */
export function robotsDirectives(
  token: ProductTokens,
  metaTags: readonly MetaTag[],
  headerValues: string | readonly string[] | undefined,
): RobotsDirectives {
  // Most pages say nothing: no tag, no header.
  if (metaTags.length === 0 && (headerValues === undefined || (typeof headerValues !== 'string' && headerValues.length === 0)))
    return NO_DIRECTIVES;
  const wanted = ownNames(token);
  const generic = newLevel();
  const specific = newLevel();
  const sources = new Set<'meta' | 'header'>();

  for (const tag of metaTags) {
    const name = tag.name.trim().toLowerCase();
    const level = name === 'robots' ? generic : wanted.has(name) ? specific : undefined;
    if (!level) continue;
    sources.add('meta');
    for (const part of tag.content.split(',')) addDirective(level, part);
  }

  const headers = headerValues === undefined ? [] : typeof headerValues === 'string' ? [headerValues] : headerValues;
  for (const header of headers) {
    if (typeof header !== 'string') continue;
    // One header may carry several scopes once Node has joined repeated headers with ", ":
    // "heedbot: noindex, otherbot: nofollow". A `name:` prefix switches the scope for what follows.
    let scope: Level | undefined = generic;
    for (const rawPart of header.split(',')) {
      let part = rawPart.trim();
      const prefixed = /^([A-Za-z_-]+)\s*:\s*(.*)$/.exec(part);
      if (prefixed && !VALUED.has(prefixed[1]!.toLowerCase())) {
        const agent = prefixed[1]!.toLowerCase();
        scope = wanted.has(agent) ? specific : agent === 'robots' ? generic : undefined;
        part = prefixed[2]!;
      }
      if (!scope || part === '') continue;
      sources.add('header');
      addDirective(scope, part);
    }
  }

  if (sources.size === 0) return NO_DIRECTIVES;
  return merge(generic, specific, [...sources]);
}

/** The crawler's own names, lower-cased: `robots` is the generic level even when listed. */
function ownNames(token: ProductTokens): ReadonlySet<string> {
  const names = new Set((typeof token === 'string' ? [token] : token).map((name) => name.toLowerCase()));
  names.delete('robots');
  return names;
}

function newLevel(): Level {
  return { flags: new Set(), values: new Map(), raw: [] };
}

function addDirective(level: Level, text: string): void {
  const directive = text.trim().toLowerCase();
  if (directive === '') return;
  const colon = directive.indexOf(':');
  const name = (colon === -1 ? directive : directive.slice(0, colon)).trim();
  const value = colon === -1 ? '' : directive.slice(colon + 1).trim();
  level.raw.push(value ? `${name}:${value}` : name);
  switch (name) {
    // Within one level the most restrictive value wins: once `false`, it stays `false`.
    case 'index':
      level.index = level.index ?? true;
      return;
    case 'noindex':
      level.index = false;
      return;
    case 'follow':
      level.follow = level.follow ?? true;
      return;
    case 'nofollow':
      level.follow = false;
      return;
    case 'all':
      level.index = level.index ?? true;
      level.follow = level.follow ?? true;
      return;
    case 'none':
      level.index = false;
      level.follow = false;
      return;
    default:
      if (VALUED.has(name)) {
        if (value !== '' && !level.values.has(name)) level.values.set(name, value);
      } else {
        level.flags.add(name);
      }
  }
}

function merge(generic: Level, specific: Level, sources: ('meta' | 'header')[]): RobotsDirectives {
  const flag = (name: string) => specific.flags.has(name) || generic.flags.has(name);
  const value = (name: string) => specific.values.get(name) ?? generic.values.get(name);
  const index = specific.index ?? generic.index ?? true;
  const follow = specific.follow ?? generic.follow ?? true;
  const maxSnippet = toInteger(value('max-snippet'));
  const maxVideoPreview = toInteger(value('max-video-preview'));
  const imagePreview = value('max-image-preview');
  const unavailableAfter = value('unavailable_after');
  return {
    noindex: !index,
    nofollow: !follow,
    noarchive: flag('noarchive') || flag('nocache'),
    nosnippet: flag('nosnippet'),
    noimageindex: flag('noimageindex'),
    notranslate: flag('notranslate'),
    indexifembedded: flag('indexifembedded'),
    ...(maxSnippet !== undefined ? { maxSnippet } : {}),
    ...(imagePreview === 'none' || imagePreview === 'standard' || imagePreview === 'large' ? { maxImagePreview: imagePreview } : {}),
    ...(maxVideoPreview !== undefined ? { maxVideoPreview } : {}),
    ...(unavailableAfter !== undefined ? { unavailableAfter } : {}),
    raw: [...generic.raw, ...specific.raw],
    sources,
  };
}

function toInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number.parseInt(text, 10);
}
