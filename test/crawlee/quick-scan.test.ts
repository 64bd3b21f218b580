/**
 * The quick scan that lets a page's document go unwalked must never hide a signal: whatever the
 * streaming reader finds in a page (a robots meta tag for the bot, a nofollow link), the scan says
 * the page may carry one. Checked on hand-written pages and on generated ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { robotsDirectives } from '../../packages/crawlee/src/page-signals/meta-robots.js';
import { signalsFromHtml } from '../../packages/crawlee/src/page-signals/index.js';
import { mayCarrySignals, signalWords } from '../../packages/crawlee/src/page-signals/quick-scan.js';

const PAGE = 'https://example.com/dir/page';
const TOKENS = ['HeedBot', 'heed-archiver'];
const words = signalWords(TOKENS);
/** The words when `rel="nofollow"` links are not read (`honorRelNofollow: false`, the default). */
const metaWords = signalWords(TOKENS, false);

/**
 * What the reader finds that matters to a crawl: any robots directive for the bot and, when links
 * are read, any nofollow link.
 */
async function hasSignal(html: string, links = true): Promise<boolean> {
  const signals = await signalsFromHtml(html, PAGE, links);
  const directives = robotsDirectives(TOKENS, signals.metaTags, undefined);
  return signals.nofollowLinks.size > 0 || Object.values(directives).some((value) => value === true);
}

describe('the quick scan of a page for signal words', () => {
  it.each([
    ['a robots meta tag', '<head><meta name="robots" content="noindex"></head>', true],
    ["the bot's own meta tag, in other case", '<head><META NAME="HEEDBOT" CONTENT="nofollow"></head>', true],
    ['its second token', '<head><meta name="heed-archiver" content="noarchive"></head>', true],
    ['a nofollow link', '<a rel="nofollow" href="/x">x</a>', true],
    ['a ugc link', '<a rel="ugc" href="/x">x</a>', true],
    ['a sponsored link', '<a rel="Sponsored" href="/x">x</a>', true],
    ['a name spelt with character references', '<head><meta name="&#114;obots" content="&#110;oindex"></head>', true],
    ['a plain page', '<html><head><title>t</title></head><body><a href="/a">a</a><p>text</p></body></html>', false],
  ])('%s: %s', async (_what, html, expected) => {
    expect(mayCarrySignals(html, words)).toBe(expected);
    expect(mayCarrySignals(Buffer.from(html), words)).toBe(expected);
    // A page the scan passes over has nothing the reader would find.
    if (!expected) expect(await hasSignal(html)).toBe(false);
  });

  it.each([
    ['a robots meta tag', '<head><meta name="ROBOTS" content="noindex"></head>', true],
    ["the bot's own meta tag", '<head><meta name="heedbot" content="nofollow"></head>', true],
    ['a name spelt with character references', '<head><meta name="&#114;obots" content="noindex"></head>', true],
    ['a nofollow link only', '<a rel="nofollow" href="/x">x</a><a rel="ugc sponsored" href="/y">y</a>', false],
  ])('without link words, %s: %s', async (_what, html, expected) => {
    expect(mayCarrySignals(html, metaWords)).toBe(expected);
    expect(mayCarrySignals(Buffer.from(html), metaWords)).toBe(expected);
    if (!expected) expect(await hasSignal(html, false)).toBe(false);
  });

  it('reads the page when its body is not at hand', () => {
    expect(mayCarrySignals(undefined, words)).toBe(true);
    expect(mayCarrySignals({ toString: () => '' }, words)).toBe(true);
  });

  it('never passes over a generated page the reader finds a signal in', async () => {
    const piece = fc.constantFrom(
      '<meta name="robots" content="nofollow">',
      '<meta name="HeedBot" content="noindex">',
      '<meta name="heed-archiver" content="none">',
      '<meta name="otherbot" content="noindex">',
      '<meta name="description" content="robots and crawlers">',
      '<a rel="nofollow" href="/n">n</a>',
      '<a rel="UGC" href="/u">u</a>',
      '<a href="/p">p</a>',
      '<title>&#72;i</title>',
      '<!-- robots -->',
      '<script>var a = "<a rel=nofollow href=/s>";</script>',
      '<p>text</p>',
      '</head><body>',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const html = `<html><head>${pieces.join('')}</body></html>`;
        if (await hasSignal(html)) expect(mayCarrySignals(html, words)).toBe(true);
        if (await hasSignal(html, false)) expect(mayCarrySignals(html, metaWords)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
