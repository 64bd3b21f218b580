/**
 * What the directives say, in their groups: rules outside any group, rule paths that cannot match,
 * reversed user-agent/path, sitemaps, crawl-delay, and a trailing group without rules.
 */
import { parseCrawlDelay } from '../compile.js';
import type { TokenizedLine } from '../tokenize.js';
import { CANONICAL_KEY, valueColumn, type LintContext } from './context.js';
import { diagnostic, ruleBeforeUserAgent, type Diagnostic } from './diagnostics.js';

/** Crawler names people put on a `Disallow:` line when they mean `User-agent:`. */
const KNOWN_CRAWLERS = new Set([
  'googlebot',
  'googlebot-image',
  'googlebot-news',
  'mediapartners-google',
  'adsbot-google',
  'google-extended',
  'bingbot',
  'msnbot',
  'slurp',
  'baiduspider',
  'yandex',
  'yandexbot',
  'duckduckbot',
  'teoma',
  'scooter',
  'ia_archiver',
  'gptbot',
  'chatgpt-user',
  'ccbot',
  'claudebot',
  'anthropic-ai',
  'applebot',
  'amazonbot',
  'bytespider',
  'petalbot',
  'ahrefsbot',
  'semrushbot',
  'mj12bot',
  'dotbot',
  'rogerbot',
  'seznambot',
  'sogou',
  'exabot',
  'facebookexternalhit',
  'twitterbot',
  'linkedinbot',
  'yeti',
  'naverbot',
  'archive.org_bot',
]);
const CRAWLER_LIKE = /bot|spider|crawler|slurp|archiver/i;
const TOKEN_LIKE = /^[A-Za-z][A-Za-z0-9_.-]*(\/[0-9][\w.]*)?$/;

export function checkRules(context: LintContext, out: Diagnostic[]): void {
  let inGroup = false;
  let groupHasWildcard = false;
  let agentsOpen = false;
  for (const record of context.lines) {
    if (record.kind !== 'directive') continue;
    switch (record.directive) {
      case 'user-agent':
        if (!agentsOpen) groupHasWildcard = false;
        agentsOpen = true;
        inGroup = true;
        if (/^\*(\s|$)/.test(record.value ?? '')) groupHasWildcard = true;
        break;
      case 'allow':
      case 'disallow':
        agentsOpen = false;
        if (!inGroup) {
          out.push(ruleBeforeUserAgent(record, 'crawler'));
        } else {
          checkPath(record, groupHasWildcard, out);
        }
        break;
      case 'sitemap':
        checkSitemap(record, out);
        break;
      case 'crawl-delay':
        checkCrawlDelay(record, inGroup, out);
        break;
      default:
        break;
    }
  }
  checkTrailingGroup(context, out);
}

function checkPath(record: TokenizedLine, groupHasWildcard: boolean, out: Diagnostic[]): void {
  const value = record.value ?? '';
  if (value.length === 0) return;
  const key = CANONICAL_KEY[record.directive === 'allow' ? 'allow' : 'disallow'];
  const column = valueColumn(record);

  if (/\s/.test(value)) {
    const parts = value.split(/[\s,]+/).filter((part) => part.length > 0);
    const paths = parts.filter((part) => part.startsWith('/') || part.startsWith('*'));
    if (paths.length >= 2) {
      out.push(
        diagnostic(
          'several-paths-on-one-line',
          record.line,
          `\`${value}\` is read as one path with white space in it, which never matches. Write one rule per line: ${paths.map((path) => `\`${key}: ${path}\``).join(', ')}.`,
          { column },
        ),
      );
      return;
    }
    const at = value.search(/\s/);
    const space = value[at] ?? ' ';
    const named =
      space === ' '
        ? 'a space'
        : space === '\t'
          ? 'a tab'
          : `an invisible U+${(space.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} space`;
    const fix =
      value.trim() !== value
        ? `Remove it: \`${key}: ${value.trim()}\``
        : `Write \`${key}: ${value.replace(/ /g, '%20')}\` if the space is really in the URL`;
    out.push(
      diagnostic(
        'space-in-path',
        record.line,
        `The path \`${value}\` contains ${named}; URLs never do (crawlers send it percent-encoded), so the rule never matches past it. ${fix}.`,
        { column: column + at },
      ),
    );
    return;
  }

  if (value.startsWith('/') || value.startsWith('*')) return;
  if (record.directive === 'disallow' && looksLikeCrawlerName(value, groupHasWildcard)) {
    out.push(
      diagnostic(
        'reversed-syntax',
        record.line,
        `\`Disallow: ${value}\` reads \`${value}\` as a path (which never matches), not as a crawler. To block ${value}, write \`User-agent: ${value}\` followed by \`Disallow: /\`.`,
        { column },
      ),
    );
    return;
  }
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(value);
  const suggestion = absolute !== null ? (absolute[1] ?? '/') : '/' + value;
  out.push(
    diagnostic(
      'path-without-leading-slash',
      record.line,
      absolute !== null
        ? `\`${value}\` is a full URL; rules compare only the path, so it never matches. Write \`${key}: ${suggestion}\`.`
        : `The path \`${value}\` does not start with \`/\` or \`*\`, so it never matches (URL paths always start with \`/\`). Write \`${key}: ${suggestion}\`.`,
      { column },
    ),
  );
}

function looksLikeCrawlerName(value: string, groupHasWildcard: boolean): boolean {
  if (!TOKEN_LIKE.test(value)) return false;
  const token = value.split('/')[0]?.toLowerCase() ?? '';
  if (KNOWN_CRAWLERS.has(token)) return true;
  return groupHasWildcard && CRAWLER_LIKE.test(token);
}

function checkSitemap(record: TokenizedLine, out: Diagnostic[]): void {
  // `Sitemap http://x`: the missing colon is the mistake, reported by the line checks.
  if (/\s+https?$/i.test(record.key ?? '')) return;
  const value = record.value ?? '';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(value)) return;
  const example = value.startsWith('/') ? `https://<your host>${value}` : 'https://example.com/sitemap.xml';
  out.push(
    diagnostic(
      'sitemap-not-absolute-url',
      record.line,
      value.length === 0
        ? "`Sitemap:` has no URL, so it is ignored. Write the sitemap's full URL, e.g. `Sitemap: https://example.com/sitemap.xml`, or remove the line."
        : `\`${value}\` is not an absolute http(s) URL, so crawlers ignore this sitemap. Write the full URL: \`Sitemap: ${example}\`.`,
      { column: valueColumn(record) },
    ),
  );
}

function checkCrawlDelay(record: TokenizedLine, inGroup: boolean, out: Diagnostic[]): void {
  const value = record.value ?? '';
  const seconds = parseCrawlDelay(value);
  const problem =
    seconds === undefined
      ? ` Besides, \`${value}\` is not a number of seconds, so nobody honours it.`
      : !inGroup
        ? ' Besides, it comes before any `User-agent:` line, so it applies to no group.'
        : '';
  out.push(
    diagnostic(
      'crawl-delay',
      record.line,
      `\`Crawl-delay\` is ignored by Google (set the crawl rate in Search Console, or answer 429/503 when overloaded); Bing, Yandex and others honour it, some as seconds between requests.${problem}`,
      { column: 1 },
    ),
  );
}

function checkTrailingGroup(context: LintContext, out: Diagnostic[]): void {
  const last = context.directives.groups[context.directives.groups.length - 1];
  if (last === undefined || last.rules.length > 0) return;
  const names = last.agents.map((agent) => agent.value).join(', ');
  const wildcard = last.agents.some((agent) => agent.token === '*');
  const who = wildcard
    ? 'every crawler that has no group of its own'
    : last.agents.length === 1
      ? 'that crawler (which then no longer follows the `*` group)'
      : 'those crawlers (which then no longer follow the `*` group)';
  out.push(
    diagnostic(
      'empty-group-at-end',
      last.line,
      `The file ends with \`User-agent: ${names}\` and no rules after it: an empty group allows everything to ${who}. Add the rules (\`Disallow: /\` to block everything), or remove the line(s).`,
      { column: 1, related: last.agents.slice(1).map((agent) => agent.line) },
    ),
  );
}
