/**
 * `heed disclose` as users run it, in this process (run-heed.ts): the three files it writes and
 * what they say, the feed gaining an entry only when the facts change, the options refused with
 * exit 2, and the numbers the page states held to the packages' own defaults.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWLER_DEFAULTS } from '../../packages/cli/dist/disclose/facts.js';
import { resolveDisclose } from '../../packages/cli/dist/disclose/options.js';
import { resolveOptions as resolvePluginOptions } from '../../packages/crawlee/src/options.js';
import { DEFAULT_RETRY_AFTER_SECS } from '../../packages/crawlee/src/politeness/retry-after.js';
import { FETCH_DEFAULTS } from '../../packages/manager/src/fetch/fetch-file.js';
import { POLICY_DEFAULTS } from '../../packages/manager/src/policy.js';
import { run } from './run-heed.js';

const UA = 'MyBot/1.0 (+https://example.com/bot)';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'heed-disclose-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh output directory (never the default ./bot-disclosure/ of the test's working directory). */
const outDir = () => join(dir, `out-${++counter}`);
const read = (out: string, name: string) => readFileSync(join(out, name), 'utf8');
const json = (out: string) => JSON.parse(read(out, 'disclosure.json')) as Record<string, unknown> & { generatedAt: string };

/**
 * Whether `text` is well-formed XML as far as a feed needs: one root, every element closed in
 * order, attributes quoted, no raw `<` or a `&` that starts no entity in text. DOM-free on purpose.
 */
function wellFormed(text: string): boolean {
  const body = text.replace(/^<\?xml [^?]*\?>\n/, '');
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < body.length) {
    const lt = body.indexOf('<', at);
    const chunk = body.slice(at, lt === -1 ? body.length : lt);
    if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(chunk) || chunk.includes('>')) return false;
    if (stack.length === 0 && chunk.trim() !== '') return false;
    if (lt === -1) break;
    tag.lastIndex = lt;
    const match = tag.exec(body);
    if (match === null) return false;
    const [, closing, name, , selfClosing] = match;
    if (closing === '/') {
      if (stack.pop() !== name) return false;
    } else if (selfClosing !== '/') {
      if (stack.length === 0) roots++;
      stack.push(name as string);
    } else if (stack.length === 0) return false;
    at = tag.lastIndex;
  }
  return stack.length === 0 && roots === 1;
}

/** Each entry of a feed: its id, updated and summary. */
function entries(feed: string): { id: string; updated: string; summary: string }[] {
  return [
    ...feed.matchAll(/<entry>\s*<id>([^<]*)<\/id>\s*<updated>([^<]*)<\/updated>[\s\S]*?<summary>([^<]*)<\/summary>\s*<\/entry>/g),
  ].map(([, id, updated, summary]) => ({ id: id as string, updated: updated as string, summary: summary as string }));
}

/** The id an entry must have: the SHA-256 of disclosure.json without generatedAt. */
function idOf(disclosure: Record<string, unknown>): string {
  const { generatedAt: _generatedAt, ...content } = disclosure;
  return `urn:sha256:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}

describe('heed disclose: the files', () => {
  it('writes index.html, disclosure.json and feed.atom, and says so', async () => {
    const out = outDir();
    const result = await run(['disclose', '-A', UA, '--purposes', 'train-ai,search', '--records', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const name of ['index.html', 'disclosure.json', 'feed.atom']) {
      expect(existsSync(join(out, name))).toBe(true);
      expect(result.stdout).toContain(`  ${name}`);
    }
    expect(result.stdout).toContain(`Wrote the disclosure of MyBot to ${out}:`);
    expect(result.stdout).toContain('a new entry, 1 entry in all');
  });

  it('escapes a hostile user-agent everywhere in the page and the feed', async () => {
    const out = outDir();
    const hostile = `EvilBot/1.0 (<script>alert("x")</script>; <img src=x onerror='y'> & +https://example.com/bot)`;
    const result = await run(['disclose', '-A', hostile, '--out', out]);
    expect(result.code).toBe(0);
    const page = read(out, 'index.html');
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;; &lt;img src=x onerror=&#39;y&#39;&gt; &amp; +https://example.com/bot',
    );
    // The contact comes from the user-agent's +URL, and links there.
    expect(page).toContain('<a href="https://example.com/bot">https://example.com/bot</a>');
    expect(json(out).userAgent).toBe(hostile);
    expect(wellFormed(read(out, 'feed.atom'))).toBe(true);
  });

  it('states the facts in disclosure.json: groups, purposes, records, contact, status policy', async () => {
    const out = outDir();
    const ua = 'MyBot-News/1.0 (+https://example.com/bot; MyBot)';
    const result = await run([
      'disclose',
      '-A',
      ua,
      '--product-token',
      'MyBot-News,MyBot',
      '--purpose',
      'ai-input',
      '--contact',
      'mailto:bots@example.com',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    const facts = json(out);
    expect(facts.version).toBe(1);
    expect(new Date(facts.generatedAt).toISOString()).toBe(facts.generatedAt);
    expect(facts).toMatchObject({
      userAgent: ua,
      productTokens: ['MyBot-News', 'MyBot'],
      groups: ['MyBot-News', 'MyBot', '*'],
      contact: 'mailto:bots@example.com',
      records: false,
      crawlDelay: { honoured: true, maxSecs: 60 },
      robotsTxt: {
        standard: 'RFC 9309',
        maxBytes: 512_000,
        maxRedirects: 5,
        onAnswer: { '2xx': 'rules', '4xx': 'allow-all', tooManyRequests: 'disallow-all', '5xx': 'disallow-all', noAnswer: 'disallow-all' },
        allowAllAfterUnreachableSecs: 30 * 86_400,
      },
      usage: { purposes: ['ai-input'], unknownUsage: 'allow' },
    });
    // Only the signals that speak for ai-input: Content-Usage has no such category, tdmrep.json has.
    const signals = (facts.usage as { signals: { signal: string; where: string }[] }).signals;
    expect(signals.map((s) => `${s.signal} @ ${s.where}`)).toContain('tdm-reservation @ /.well-known/tdmrep.json');
    expect(signals.some((s) => s.signal === 'Content-Usage')).toBe(false);
    const page = read(out, 'index.html');
    expect(page).toContain('names any of <code>MyBot-News</code> and <code>MyBot</code>');
    expect(page).toContain('<a href="mailto:bots@example.com">bots@example.com</a>');
    expect(page).not.toContain('The records it keeps');
  });

  it('reads the options from --config, the plugin names and defaults, and states what they change', async () => {
    const out = outDir();
    const config = join(dir, 'bot.json');
    writeFileSync(
      config,
      JSON.stringify({
        userAgent: UA,
        productToken: 'MyBot',
        purposes: ['train-ai'],
        crawlDelay: false,
        records: true,
        unknownUsage: 'disallow',
      }),
    );
    const result = await run(['disclose', '--config', config, '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(json(out)).toMatchObject({
      crawlDelay: { honoured: false, maxSecs: null },
      retryAfter: { honoured: false },
      records: true,
      usage: { purposes: ['train-ai'], unknownUsage: 'disallow' },
      requests: { checkRedirects: true, blockSubresources: true, honorRelNofollow: false },
    });
    const page = read(out, 'index.html');
    expect(page).toContain('It does not read <code>Crawl-delay</code>');
    expect(page).toContain('The records it keeps');
    expect(page).toContain('it uses only content whose owner said yes');
  });

  it('answers --json with the files written', async () => {
    const out = outDir();
    const result = await run(['disclose', '-A', UA, '--out', out, '--json']);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as { changed: boolean; id: string; files: { name: string; path: string; written: boolean }[] };
    expect(answer.changed).toBe(true);
    expect(answer.id).toBe(idOf(json(out)));
    expect(answer.files).toEqual(
      ['index.html', 'disclosure.json', 'feed.atom'].map((name) => ({ name, path: join(out, name), written: true })),
    );
  });

  it('prints the --out path escaped: no byte of it reaches the terminal raw', async () => {
    const out = join(dir, 'x\u001b[2Jy');
    const result = await run(['disclose', '-A', UA, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('x\\x1b[2Jy');
  });
});

describe('heed disclose: the feed', () => {
  it('gains an entry when the facts change, none when they do not', async () => {
    const out = outDir();
    const first = await run(['disclose', '-A', UA, '--purpose', 'search', '--out', out]);
    expect(first.code).toBe(0);
    const feed1 = read(out, 'feed.atom');
    expect(wellFormed(feed1)).toBe(true);
    expect(feed1).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    expect(feed1).toMatch(/<feed[^>]*>\s*<id>urn:uuid:[0-9a-f-]{36}<\/id>\s*<title>MyBot: crawler disclosure<\/title>\s*<updated>/);
    const [entry] = entries(feed1);
    expect(entries(feed1)).toHaveLength(1);
    expect(entry?.id).toBe(idOf(json(out)));
    expect(entry?.summary).toMatch(/^First disclosure\. .*purposes: search/);

    // The same facts again: the feed is left as it was, byte for byte; disclosure.json is written anew.
    const again = await run(['disclose', '-A', UA, '--purpose', 'search', '--out', out, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, feedEntries: 1 });
    expect(read(out, 'feed.atom')).toBe(feed1);
    expect(read(out, 'index.html')).toContain(`Last changed <time datetime="${entry?.updated}">`);

    // Another purpose: one new entry, first, the older one kept, the feed's id kept.
    const changed = await run(['disclose', '-A', UA, '--purpose', 'search,train-ai', '--out', out]);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain('a new entry, 2 entries in all');
    const feed2 = read(out, 'feed.atom');
    expect(wellFormed(feed2)).toBe(true);
    const both = entries(feed2);
    expect(both.map((e) => e.id)).toEqual([idOf(json(out)), entry?.id]);
    expect(both[0]?.summary).toMatch(/^Changed: usage\. /);
    expect(feed2.match(/<id>urn:uuid:[^<]*<\/id>/)?.[0]).toBe(feed1.match(/<id>urn:uuid:[^<]*<\/id>/)?.[0]);
    expect(feed2).toContain(`<updated>${both[0]?.updated}</updated>\n  <link rel="self"`);
  });

  it('keeps the 20 newest entries', async () => {
    const out = outDir();
    for (let i = 0; i < 22; i++)
      expect((await run(['disclose', '-A', UA, '--contact', `https://example.com/bot/${i}`, '--out', out])).code).toBe(0);
    const kept = entries(read(out, 'feed.atom'));
    expect(kept).toHaveLength(20);
    expect(kept[0]?.summary).toContain('contact: https://example.com/bot/21.');
    expect(kept[19]?.summary).toContain('contact: https://example.com/bot/2.');
  });

  it('leaves a feed.atom it did not write alone (exit 2)', async () => {
    const out = outDir();
    await run(['disclose', '-A', UA, '--out', out]);
    const foreign = '<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>\n';
    writeFileSync(join(out, 'feed.atom'), foreign);
    const result = await run(['disclose', '-A', UA, '--purpose', 'search', '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `heed: "${join(out, 'feed.atom')}" is not a feed heed disclose wrote; move it away, or choose another --out, so that it is not overwritten.\n`,
    );
    expect(read(out, 'feed.atom')).toBe(foreign);
  });
});

describe('heed disclose: what it refuses', () => {
  it.each([
    [[], 'disclose needs --user-agent'],
    [['-A', 'MyBot', '--purpose', 'train'], '--purpose train: not a usage category; use one of train-ai, search, ai-input, ai-use.'],
    [
      ['-A', 'MyBot', '--contact', 'ftp://example.com/'],
      '--contact: "ftp://example.com/" is neither an http(s) page nor a mailto: address',
    ],
    [
      ['-A', 'MyBot', '--contact', 'mailto:nobody'],
      '--contact: "mailto:nobody" is neither an http(s) page nor a mailto: address with one @',
    ],
    [['-A', 'MyBot', '--contact', 'example.com/bot'], '--contact: "example.com/bot" is not an absolute URL'],
    [['-A', 'MyBot', '--contact', 'https://exa\nmple.com'], '--contact: contains white space or a control character'],
    [
      ['-A', 'Mozilla/5.0 (compatible; MyBot/1.0)'],
      '--user-agent: "Mozilla/5.0 (compatible; MyBot/1.0)" starts with the browser token "Mozilla"',
    ],
    [['-A', 'MyBot', '--config', 'bot.json'], '--user-agent and --config: give the disclosure either as flags or in the file'],
    [['extra', '-A', 'MyBot'], 'disclose takes no operands ("extra")'],
    [['--config'], '--config needs a value.'],
  ])('heed disclose %j → exit 2, the problem and the help, nothing written', async (args, message) => {
    const out = outDir();
    const result = await run(['disclose', ...args, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [problem, see, ...rest] = result.stderr.split('\n');
    expect(problem).toContain(message);
    expect(problem).toMatch(/^heed: /);
    expect(see).toBe('see heed disclose --help');
    expect(rest).toEqual(['']);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses its flags on other commands', async () => {
    const result = await run(['check', 'https://example.com/', '-A', 'MyBot', '--contact', 'https://example.com/bot']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('heed: --contact only applies to disclose.');
  });

  it.each([
    ['missing', undefined, 'heed: cannot read the config file "{file}": no such file.\n'],
    ['not JSON', '{ userAgent: "MyBot" }', 'heed: the config file "{file}" is not JSON ('],
    ['empty', '', 'heed: the config file "{file}" is not JSON ('],
  ])('--config %s → exit 2, one line naming the file', async (_what, content, expected) => {
    const file = join(dir, `config-${++counter}.json`);
    if (content !== undefined) writeFileSync(file, content);
    const out = outDir();
    const result = await run(['disclose', '--config', file, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(expected.replace('{file}', file))).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [
      { userAgent: UA, purposes: ['train'] },
      `"purposes": "train" is not a usage category. The usage categories are 'train-ai', 'search', 'ai-input' or 'ai-use'.`,
    ],
    [{ userAgent: UA, purpose: ['search'] }, '"purpose": unknown option; did you mean "purposes"?'],
    [{ userAgent: UA, maxCrawlDelaySecs: 100_000 }, '"maxCrawlDelaySecs": expected a number of seconds from 0 to 86,400 (one day)'],
    [{ userAgent: UA, records: { file: 'r.jsonl' } }, '"records": expected true or false'],
    [{ productToken: 'MyBot' }, `"userAgent": required: your crawler's User-Agent header`],
    [{ userAgent: UA, productToken: 'OtherBot' }, '"productToken": "OtherBot" does not appear in userAgent'],
    [[UA], 'expected an options object, e.g. { "userAgent": "MyBot/1.0 (+https://example.com/bot)" }, got an array.'],
  ])('--config holding %j → exit 2 naming the field', async (content, message) => {
    const file = join(dir, `config-${++counter}.json`);
    writeFileSync(file, JSON.stringify(content));
    const out = outDir();
    const result = await run(['disclose', '--config', file, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`heed: --config ${file}: `);
    expect(result.stderr).toContain(message);
    expect(existsSync(out)).toBe(false);
  });

  it('--json makes an error a JSON document', async () => {
    const result = await run(['disclose', '--config', join(dir, 'none.json'), '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { type: 'input', message: `cannot read the config file "${join(dir, 'none.json')}": no such file.` },
    });
  });

  it('is in the help', async () => {
    expect((await run(['--help'])).stdout).toContain('heed disclose --user-agent <ua>');
    const help = (await run(['disclose', '--help'])).stdout;
    expect(help).toMatch(/^Usage: heed disclose /);
    for (const flag of ['--config <file>', '--out <dir>', '--contact <url>', '--records', '--purpose <p>']) expect(help).toContain(flag);
    expect(help).not.toContain('--ignore');
  });
});

describe('heed disclose: the page states what the packages do', () => {
  it("holds its numbers to @heed/manager's and @heed/crawlee's defaults", () => {
    expect(CRAWLER_DEFAULTS).toEqual({
      maxBytes: FETCH_DEFAULTS.maxBytes,
      maxRedirects: FETCH_DEFAULTS.maxRedirects,
      defaultTtlSecs: POLICY_DEFAULTS.defaultTtlMs / 1000,
      minTtlSecs: POLICY_DEFAULTS.minTtlMs / 1000,
      maxTtlSecs: POLICY_DEFAULTS.maxTtlMs / 1000,
      retryBaseSecs: POLICY_DEFAULTS.retryBaseMs / 1000,
      retryMaxSecs: POLICY_DEFAULTS.retryMaxMs / 1000,
      unreachableAllowAfterSecs: POLICY_DEFAULTS.unreachableAllowAfterMs / 1000,
      retryAfterDefaultSecs: DEFAULT_RETRY_AFTER_SECS,
    });
  });

  it('defaults each option as the plugin does, and bounds maxCrawlDelaySecs as it does', () => {
    const ours = resolveDisclose({ userAgent: UA });
    const plugin = resolvePluginOptions({ userAgent: UA });
    for (const key of [
      'productToken',
      'purposes',
      'unknownUsage',
      'crawlDelay',
      'maxCrawlDelaySecs',
      'checkRedirects',
      'checkSendRequest',
      'blockSubresources',
      'identifyPages',
      'metaRobots',
      'honorRelNofollow',
    ] as const)
      expect([key, ours[key]]).toEqual([key, plugin[key]]);
    expect(ours.sitemaps).toBe(plugin.sitemaps !== false);
    expect(ours.records).toBe(plugin.records !== undefined);
    expect(() => resolvePluginOptions({ userAgent: UA, maxCrawlDelaySecs: 86_401 })).toThrow(/maxCrawlDelaySecs/);
    expect(() => resolveDisclose({ userAgent: UA, maxCrawlDelaySecs: 86_401 })).toThrow(/maxCrawlDelaySecs/);
    expect(resolveDisclose({ userAgent: UA, maxCrawlDelaySecs: 86_400 }).maxCrawlDelaySecs).toBe(86_400);
    expect(resolvePluginOptions({ userAgent: UA, maxCrawlDelaySecs: 86_400 }).maxCrawlDelaySecs).toBe(86_400);
  });
});
