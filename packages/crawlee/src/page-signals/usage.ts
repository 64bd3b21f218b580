/**
 * What a fetched response says about AI usage, as evidence for the usage verdict (see
 * `UsageReport` in @heed/manager). Pure; the headers and meta tags are read elsewhere (page-info.ts,
 * from the document the crawler parsed).
 *
 * - `Content-Usage` / `Content-Signal` headers: the robots.txt dictionaries, for this response
 *   (draft-ietf-aipref-attach; Content Signals). Read by the parser's `parseUsageHeader`.
 * - `tdm-reservation: 1` header and `<meta name="tdm-reservation" content="1">` (TDMRep):
 *   `train-ai` and `ai-input` disallowed; `0`: allowed.
 * - `noai` in `X-Robots-Tag` or a robots meta tag, for all bots or for the crawler's token (any of them):
 *   `train-ai` and `ai-input` disallowed. `noimageai` only for image responses (its meaning: the
 *   images may not be used), so an HTML page that says it is still handed to the handler.
 */
import type { ProductTokens, UsageSignal } from '@heed/parser';
import { parseUsageHeader } from '@heed/parser';
import type { UsageEvidence } from '@heed/manager';
import { robotsDirectives, type MetaTag } from './meta-robots.js';

/** The categories `tdm-reservation` and `noai` speak for. */
const AI_CATEGORIES = ['train-ai', 'ai-input'] as const;

/**
 * The response headers read (lower-case names), each line of a name as its own array item, never
 * joined: Node joins repeated lines with ", ", which would make `X-Robots-Tag: otherbot: noindex`
 * and `X-Robots-Tag: noai` one statement for otherbot, and two `tdm-reservation: 1` lines "1, 1".
 */
export interface UsageHeaders {
  readonly 'content-usage'?: string | readonly string[];
  readonly 'content-signal'?: string | readonly string[];
  readonly 'tdm-reservation'?: string | readonly string[];
  readonly 'x-robots-tag'?: string | readonly string[];
  readonly 'content-type'?: string | readonly string[];
}

const HEADER_NAMES: Readonly<Record<UsageSignal, string>> = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' };

/** Evidence from a response's headers and its `<head>` meta tags, headers first. */
export function pageUsageEvidence(token: ProductTokens, headers: UsageHeaders, metaTags: readonly MetaTag[]): UsageEvidence[] {
  const evidence: UsageEvidence[] = [];
  for (const signal of ['content-usage', 'content-signal'] as const) {
    for (const line of lines(headers[signal])) {
      const statement = parseUsageHeader(signal, line);
      for (const [category, stated] of statement.preferences) {
        evidence.push({
          category,
          preference: stated.preference,
          signal,
          source: 'header',
          where: `${HEADER_NAMES[signal]} header`,
          value: statement.value,
          description: `the ${HEADER_NAMES[signal]} response header "${statement.value}"`,
        });
      }
    }
  }
  for (const reservation of lines(headers['tdm-reservation']))
    evidence.push(
      ...tdmReservation(reservation, 'header', 'tdm-reservation header', `the tdm-reservation response header "${reservation}"`),
    );

  const image = /^\s*image\//i.test(first(headers['content-type']) ?? '');
  const header = lines(headers['x-robots-tag']);
  if (header.length > 0)
    evidence.push(
      ...noai(robotsDirectives(token, [], header).raw, image, 'header', 'X-Robots-Tag header', 'the X-Robots-Tag response header'),
    );
  if (metaTags.length > 0) {
    evidence.push(
      ...noai(
        robotsDirectives(token, metaTags, undefined).raw,
        image,
        'meta',
        'robots meta tag',
        `a robots meta tag (${metaNames(token)})`,
      ),
    );
    const tdmMeta = metaTags.find((tag) => tag.name.trim().toLowerCase() === 'tdm-reservation');
    if (tdmMeta !== undefined) {
      const content = tdmMeta.content.trim();
      evidence.push(...tdmReservation(content, 'meta', 'tdm-reservation meta tag', `<meta name="tdm-reservation" content="${content}">`));
    }
  }
  return evidence;
}

/** The meta names read for the crawler: `robots or mybot`, `robots, mybot-news or mybot`. */
function metaNames(token: ProductTokens): string {
  const names = ['robots', ...(typeof token === 'string' ? [token] : token)];
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1) as string}`;
}

function tdmReservation(value: string, source: 'header' | 'meta', where: string, description: string): UsageEvidence[] {
  const text = value.trim();
  const preference = text === '1' ? 'disallow' : text === '0' ? 'allow' : undefined;
  if (preference === undefined) return [];
  return AI_CATEGORIES.map((category) => ({ category, preference, signal: 'tdm-reservation', source, where, value: text, description }));
}

function noai(raw: readonly string[], image: boolean, source: 'header' | 'meta', where: string, description: string): UsageEvidence[] {
  const directive = raw.includes('noai') ? 'noai' : image && raw.includes('noimageai') ? 'noimageai' : undefined;
  if (directive === undefined) return [];
  return AI_CATEGORIES.map((category) => ({
    category,
    preference: 'disallow',
    signal: directive,
    source,
    where,
    value: directive,
    description: `${description} "${directive}"`,
  }));
}

function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

/** The header lines of one name, each its own statement (a string is one line); a repeated line counts once. */
function lines(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...new Set(value)];
}
