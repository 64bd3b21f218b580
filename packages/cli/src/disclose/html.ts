/**
 * `index.html`: the disclosure as a page a site owner reads, written from the same
 * {@link Disclosure} as `disclosure.json`. One file, no script, no request to anywhere (the style is
 * inline), so it can be published as it is. Every string from the operator's options is escaped.
 * Pure.
 */
import type { Disclosure, Outcome } from './facts.js';
import { escapeMarkup as e } from './markup.js';

export interface PageDates {
  /** When this page was written. */
  readonly generatedAt: string;
  /** When its content last changed: the feed's newest entry. */
  readonly changedAt: string;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code{font:0.9em ui-monospace,monospace;background:#f2f2f2;padding:0 0.2em;overflow-wrap:anywhere}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:0.25rem 0.5rem;text-align:left;vertical-align:top}
footer{margin-top:2rem;color:#555;font-size:0.9em}`;

const OUTCOME_WORDS: Readonly<Record<Outcome, string>> = {
  rules: 'the rules of the file apply',
  'allow-all': 'everything is allowed',
  'disallow-all': 'nothing is fetched',
};

export function disclosurePage(d: Disclosure, dates: PageDates): string {
  const name = d.productTokens[0] ?? d.userAgent;
  const body = [
    `<h1>${e(name)}: what this crawler does</h1>`,
    `<p>This page describes the web crawler that sends the <code>User-Agent</code> header <code>${e(d.userAgent)}</code>, and how it treats your site's <code>robots.txt</code> and the other statements a site makes about its content.</p>`,
    ...identity(d),
    ...reading(d),
    ...answers(d),
    ...pacing(d),
    ...requests(d),
    ...usage(d),
    ...records(d),
    ...contact(d),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(name)}: crawler disclosure</title>
<link rel="alternate" type="application/atom+xml" title="Changes to this disclosure" href="feed.atom">
<link rel="alternate" type="application/json" href="disclosure.json">
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body.join('\n')}
</main>
<footer>
<p>Last changed <time datetime="${e(dates.changedAt)}">${e(dates.changedAt)}</time>; written <time datetime="${e(dates.generatedAt)}">${e(dates.generatedAt)}</time> by <code>heed disclose</code>. The same facts, machine-readable: <a href="disclosure.json">disclosure.json</a>. Changes: <a href="feed.atom">feed.atom</a> (Atom).</p>
</footer>
</body>
</html>
`;
}

function identity(d: Disclosure): string[] {
  const tokens = d.productTokens.map((t) => `<code>${e(t)}</code>`);
  const named =
    tokens.length === 1
      ? `the groups whose <code>User-agent</code> line names ${tokens[0]}`
      : `the groups whose <code>User-agent</code> line names any of ${list(tokens)}, all of them together (their rules merged)`;
  return [
    '<h2>Which robots.txt rules it obeys</h2>',
    `<p>It obeys ${named}. When your robots.txt has no group naming ${tokens.length === 1 ? 'it' : 'any of them'}, it obeys the <code>User-agent: *</code> group. Names are compared without regard to case.</p>`,
  ];
}

function reading(d: Disclosure): string[] {
  const r = d.robotsTxt;
  return [
    '<h2>How it reads robots.txt</h2>',
    '<ul>',
    `<li>It fetches <code>/robots.txt</code> of each origin (scheme, host and port) before it requests anything else there, and reads it as ${e(r.standard)} specifies, the way Google's reference parser (<a href="https://github.com/google/robotstxt">${e(r.parser)}</a>) does: including its leniencies, such as misspelled keys (<code>useragent</code>, <code>dissallow</code>) and a missing colon (<code>Disallow /private</code>).</li>`,
    '<li>The longest matching rule decides; when an <code>Allow</code> and a <code>Disallow</code> rule match equally long, <code>Allow</code> wins.</li>',
    `<li>It reads the first ${bytes(r.maxBytes)} of the file, as Google does, and follows up to ${r.maxRedirects} redirects to reach it.</li>`,
    `<li>It keeps a copy for as long as your <code>Cache-Control: max-age</code> says, between ${duration(r.cacheSecs.min)} and ${duration(r.cacheSecs.max)}; ${duration(r.cacheSecs.default)} without one. A change to your robots.txt is obeyed within that time.</li>`,
    '</ul>',
  ];
}

function answers(d: Disclosure): string[] {
  const r = d.robotsTxt;
  const row = (answer: string, outcome: Outcome, note = '') => `<tr><td>${answer}</td><td>${OUTCOME_WORDS[outcome]}${note}</td></tr>`;
  const stale = `; while it stays so, the last copy that answered 2xx or 4xx is used instead, and robots.txt is asked again after ${duration(r.retrySecs.first)}, then at doubling intervals up to ${duration(r.retrySecs.max)} (or when <code>Retry-After</code> says, within that)`;
  return [
    '<h2>What your robots.txt answer means to it</h2>',
    '<table>',
    '<tr><th>robots.txt answers</th><th>then</th></tr>',
    row('2xx', r.onAnswer['2xx']),
    `<tr><td>a redirect</td><td>followed to the file it leads to, up to ${r.maxRedirects} hops, on any host; more hops, or a loop: ${OUTCOME_WORDS[r.onAnswer.tooManyRedirects]}</td></tr>`,
    row('4xx (404, 403, 410, …) except 429: "unavailable"', r.onAnswer['4xx']),
    row('429 or 5xx: "unreachable"', r.onAnswer.tooManyRequests, stale),
    row('no answer (DNS failure, refused or reset connection, timeout): "unreachable"', r.onAnswer.noAnswer, stale),
    row(
      `unreachable for ${duration(r.allowAllAfterUnreachableSecs)}, with failures spread across them, and no good copy`,
      'allow-all',
      " (Google's rule)",
    ),
    '</table>',
  ];
}

function pacing(d: Disclosure): string[] {
  if (!d.crawlDelay.honoured || d.crawlDelay.maxSecs === null)
    return [
      '<h2>Crawl-delay</h2>',
      '<p>It does not read <code>Crawl-delay</code>, and does not pause after a <code>429</code> or <code>503</code> answer to a page.</p>',
    ];
  const retry = d.retryAfter;
  return [
    '<h2>Crawl-delay</h2>',
    `<p>It honours <code>Crawl-delay</code> of the group it obeys, up to ${duration(d.crawlDelay.maxSecs)}: two requests to one origin are at least that far apart, counted from when each request really leaves. Other origins are not slowed.</p>`,
    `<p>A page answered <code>${retry.statuses.join('</code> or <code>')}</code> pauses its whole origin for its <code>Retry-After</code> (${retry.defaultSecs === null ? '' : `${duration(retry.defaultSecs)} without a readable one, `}at most ${duration(retry.maxSecs ?? 0)}).</p>`,
  ];
}

function requests(d: Disclosure): string[] {
  const q = d.requests;
  const items = [
    q.identifyPages
      ? 'Its page requests carry the <code>User-Agent</code> above, so your logs show the name whose rules it obeys.'
      : "Its page requests may carry another <code>User-Agent</code> (a browser's); robots.txt is fetched under the one above, and its groups are the ones obeyed.",
    q.checkRedirects
      ? 'Every redirect target is checked against its own robots.txt before it is requested.'
      : 'Redirect targets are followed without a robots.txt check (each still waits for its crawl-delay).',
    q.blockSubresources
      ? 'When it renders pages, the scripts, images, frames and other resources a page loads are requested only where robots.txt allows them.'
      : 'When it renders pages, the resources a page loads are requested without a robots.txt check.',
    q.checkSendRequest ? 'Other requests its own code makes while handling a page are checked against robots.txt too.' : '',
    q.metaRobots
      ? 'It reads <code>&lt;meta name="robots"&gt;</code>, a <code>&lt;meta&gt;</code> tag naming its product token, and <code>X-Robots-Tag</code>: the links of a <code>nofollow</code> or <code>none</code> page are not followed.'
      : '',
    q.honorRelNofollow ? 'Links marked <code>rel="nofollow"</code> are not followed.' : '',
    q.sitemaps
      ? 'It reads the sitemaps your robots.txt names in <code>Sitemap:</code> lines, and requests their URLs only where robots.txt allows them.'
      : '',
  ].filter((item) => item !== '');
  return ['<h2>Beyond robots.txt</h2>', '<ul>', ...items.map((item) => `<li>${item}</li>`), '</ul>'];
}

function usage(d: Disclosure): string[] {
  const u = d.usage;
  if (u.purposes.length === 0)
    return [
      '<h2>What the content is used for</h2>',
      '<p>This crawler declares no purpose such as AI training; it reads no AI-usage signal (<code>Content-Usage</code>, <code>Content-Signal</code>, <code>tdmrep.json</code>, <code>noai</code>).</p>',
    ];
  const codes = u.purposes.map((p) => `<code>${e(p)}</code>`);
  const rows = u.signals.map(
    (s) => `<tr><td><code>${e(s.signal)}</code></td><td>${e(s.where)}</td><td>${e(s.purposes.join(', '))}</td><td>${e(s.spec)}</td></tr>`,
  );
  return [
    '<h2>What the content is used for</h2>',
    `<p>The crawl is for ${list(codes)}. It honours what your site says about these uses: a URL whose preference for any of them is "no" in robots.txt${u.signals.some((s) => s.where.includes('tdmrep')) ? ' or in <code>/.well-known/tdmrep.json</code>' : ''} is never fetched, and a page whose response headers or <code>&lt;meta&gt;</code> tags say "no" is not used. Where signals disagree, any "no" wins.</p>`,
    `<p>Where your site says nothing about a use, the crawler reads that as ${u.unknownUsage === 'disallow' ? '"no": it uses only content whose owner said yes' : '"yes", as the drafts do: no statement is no restriction'}.</p>`,
    '<table>',
    '<tr><th>signal</th><th>where it is read</th><th>for</th><th>specification</th></tr>',
    ...rows,
    '</table>',
  ];
}

function records(d: Disclosure): string[] {
  if (!d.records) return [];
  return [
    '<h2>The records it keeps</h2>',
    '<p>It keeps a record of every request it made and every URL it left out, each naming the robots.txt its decision was made by (by its SHA-256 hash) and the deciding line, so that the crawl can be checked afterwards against the rules your site published at the time.</p>',
  ];
}

function contact(d: Disclosure): string[] {
  if (d.contact === null) return ['<h2>Contact</h2>', '<p>No contact was given for this crawler.</p>'];
  const shown = d.contact.startsWith('mailto:') ? d.contact.slice('mailto:'.length) : d.contact;
  return ['<h2>Contact</h2>', `<p>Questions, or a problem with this crawler: <a href="${e(d.contact)}">${e(shown)}</a>.</p>`];
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] as string}`;
}

function bytes(n: number): string {
  const exact = `${n.toLocaleString('en-US')} bytes`;
  return n % 1024 === 0 ? `${n / 1024} KiB (${exact})` : exact;
}

/** Seconds in the largest unit that writes them whole: `5 minutes`, `24 hours`, `30 days`. */
function duration(secs: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (secs >= size && secs % size === 0) {
      const n = secs / size;
      return unit === 'day' && n === 1 ? '24 hours' : `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${secs} second${secs === 1 ? '' : 's'}`;
}
