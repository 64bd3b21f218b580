/**
 * Hostile pages never stall a crawl: reading a page's robots meta tags and
 * nofollow links is linear in the page, bounded by the 5,000,000-character cap, and hands the event
 * loop back every slice. The regex scanner it replaces took 16.6 s on 200 KB of `<a <a <a …`
 * (25 KB 0.29 s, 100 KB 4.2 s: quadratic).
 *
 * Counted here: the turns of the event loop a read takes, what past the cap is left unread, what
 * each read finds. How the time grows with the page, and how long the worst page holds the event
 * loop, only a clock shows: test/stress/growth.stress.ts times the same pages.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HTML_CHARS, signalsFromCheerio, signalsFromHtml } from '../../packages/crawlee/src/page-signals/index.js';
import type { TreeNode } from '../../packages/crawlee/src/page-signals/cheerio.js';
import { mayCarrySignals, signalWords } from '../../packages/crawlee/src/page-signals/quick-scan.js';
import { hostilePages, nearMissPages } from '../support/hostile-pages.js';
import { turnsDuring } from '../support/growth.js';

const PAGE = 'https://example.com/';
/** Characters the raw-body reader tokenizes between two turns of the event loop. */
const SLICE_CHARS = 64 * 1024;

describe('reading a hostile raw body', () => {
  it.each(hostilePages)(
    'reads %s up to the 5,000,000-character cap, handing the event loop back after every slice',
    async (_name, make) => {
      const html = make(MAX_HTML_CHARS + 1_000_000);
      const turns = await turnsDuring(() => signalsFromHtml(html, PAGE, true));
      // A turn after every slice of 64 Ki characters of the 5,000,000 read (and every 1,000 links
      // resolved): a few milliseconds of work each, whatever the page.
      expect(turns).toBeGreaterThanOrEqual(Math.floor(MAX_HTML_CHARS / SLICE_CHARS));
    },
  );

  it('leaves what is past the cap unread: the nofollow links of the first 5,000,000 characters, no more', async () => {
    const [, make] = hostilePages.find(([name]) => name === 'distinct nofollow links')!;
    const html = make(MAX_HTML_CHARS + 1_000_000);
    const tagsWithin = (text: string) => text.split('>').length - 1;
    expect(tagsWithin(html)).toBeGreaterThan(tagsWithin(html.slice(0, MAX_HTML_CHARS)));
    const { nofollowLinks } = await signalsFromHtml(html, PAGE, true);
    expect([...nofollowLinks].length).toBe(tagsWithin(html.slice(0, MAX_HTML_CHARS)));
  });
});

describe('the quick scan of a raw body, before any reading', () => {
  // Every word the scan looks for: `robots`, two tokens, and the nofollow words.
  const words = signalWords(['HeedBot', 'HeedBot-News'], true);
  const bytes = (text: string) => Buffer.from(text, 'latin1');

  it.each(nearMissPages)('finds no signal in %s, of 1 MB, 2 MB or up to the cap', (_name, make) => {
    for (const size of [1_000_000, 2_000_000, MAX_HTML_CHARS - 100])
      expect(mayCarrySignals(bytes(make(size)), words), `${size}`).toBe(false);
  });

  it('reads on, without scanning, a body past the cap', () => {
    expect(mayCarrySignals(bytes('r'.repeat(MAX_HTML_CHARS + 1)), words)).toBe(true);
  });
});

describe("reading Cheerio's document", () => {
  it('walks a document nested 500,000 elements deep without recursion', async () => {
    const root: { type: string; children: TreeNode[] } = { type: 'root', children: [] };
    let parent = root;
    for (let i = 0; i < 500_000; i++) {
      const child = { type: 'tag', name: 'div', attribs: {}, children: [] as TreeNode[] };
      parent.children.push(child);
      parent = child;
    }
    parent.children.push({ type: 'tag', name: 'a', attribs: { rel: 'nofollow', href: '/deep' }, children: [] });
    const $ = { root: () => [root] };
    const turns = await turnsDuring(async () => {
      expect([...(await signalsFromCheerio($, PAGE, true)).nofollowLinks]).toEqual(['https://example.com/deep']);
    });
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});
