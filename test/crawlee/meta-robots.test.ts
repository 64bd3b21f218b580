/**
 * Robots meta tags and X-Robots-Tag, read the way Google documents them: `none` = noindex+nofollow,
 * the most restrictive value wins within one level, the more specific user-agent wins between levels.
 */
import { describe, expect, it } from 'vitest';
import { type MetaTag } from '@heed/crawlee';
import { robotsDirectives } from '../../packages/crawlee/src/page-signals/meta-robots.js';

const meta = (name: string, content: string): MetaTag => ({ name, content });

const cases: [string, MetaTag[], string | string[] | undefined, Record<string, unknown>][] = [
  ['nothing said', [], undefined, { noindex: false, nofollow: false, sources: [] }],
  ['robots noindex', [meta('robots', 'noindex')], undefined, { noindex: true, nofollow: false, sources: ['meta'] }],
  ['robots none', [meta('ROBOTS', 'None')], undefined, { noindex: true, nofollow: true }],
  ['robots all', [meta('robots', 'all')], undefined, { noindex: false, nofollow: false }],
  [
    'most restrictive within a level',
    [meta('robots', 'index, follow'), meta('robots', 'nofollow')],
    undefined,
    { nofollow: true, noindex: false },
  ],
  ['other crawler ignored', [meta('googlebot', 'noindex, nofollow')], undefined, { noindex: false, nofollow: false, sources: [] }],
  ['own token applies', [meta('heedbot', 'nofollow')], undefined, { nofollow: true }],
  [
    'specific beats generic',
    [meta('robots', 'noindex, nofollow'), meta('HeedBot', 'index, follow')],
    undefined,
    { noindex: false, nofollow: false },
  ],
  ['specific restricts generic', [meta('robots', 'follow'), meta('heedbot', 'nofollow')], undefined, { nofollow: true }],
  ['header generic', [], 'noindex, nofollow', { noindex: true, nofollow: true, sources: ['header'] }],
  ['header for our token', [], 'heedbot: noindex', { noindex: true, nofollow: false }],
  ['header for another token', [], 'otherbot: noindex', { noindex: false, sources: [] }],
  ['joined headers switch scope', [], 'otherbot: noindex, heedbot: nofollow', { noindex: false, nofollow: true }],
  ['scope covers the rest of the list', [], 'heedbot: noindex, nofollow', { noindex: true, nofollow: true }],
  ['several headers', [], ['noarchive', 'heedbot: nosnippet'], { noarchive: true, nosnippet: true }],
  ['header specific beats meta generic', [meta('robots', 'nofollow')], 'heedbot: follow', { nofollow: false, sources: ['meta', 'header'] }],
  [
    'valued directives',
    [meta('robots', 'max-snippet:50, max-image-preview:large, max-video-preview:-1, unavailable_after: 2030-01-01')],
    undefined,
    { maxSnippet: 50, maxImagePreview: 'large', maxVideoPreview: -1, unavailableAfter: '2030-01-01' },
  ],
  ['valued directive in a header is not a user-agent', [], 'max-snippet: 10', { maxSnippet: 10 }],
  [
    'flags',
    [meta('robots', 'noimageindex, notranslate, indexifembedded, nocache')],
    undefined,
    { noimageindex: true, notranslate: true, indexifembedded: true, noarchive: true },
  ],
  ['garbage tolerated', [meta('robots', ',, ;;, max-snippet:abc')], ':::, ,', { noindex: false, nofollow: false }],
];

describe('robotsDirectives', () => {
  it.each(cases)('%s', (_name, tags, header, expected) => {
    expect(robotsDirectives('HeedBot', tags, header)).toMatchObject(expected);
  });

  // A crawler known by several tokens: the tags naming any of them are its own level.
  const listCases: [string, MetaTag[], string | string[] | undefined, Record<string, unknown>][] = [
    [
      "either token's meta tag applies",
      [meta('heedbot-news', 'nofollow'), meta('HeedBot', 'noarchive')],
      undefined,
      { nofollow: true, noarchive: true },
    ],
    ['most restrictive between the tokens', [meta('heedbot-news', 'index'), meta('heedbot', 'noindex')], undefined, { noindex: true }],
    ["the tokens' level beats robots", [meta('robots', 'noindex'), meta('heedbot-news', 'index')], undefined, { noindex: false }],
    ['another bot still ignored', [meta('otherbot', 'noindex')], undefined, { noindex: false, sources: [] }],
    [
      'header scopes of either token',
      [],
      'otherbot: noindex, heedbot-news: nofollow, heedbot: nosnippet',
      { noindex: false, nofollow: true, nosnippet: true },
    ],
  ];
  it.each(listCases)('with [HeedBot-News, HeedBot]: %s', (_name, tags, header, expected) => {
    expect(robotsDirectives(['HeedBot-News', 'HeedBot'], tags, header)).toMatchObject(expected);
  });

  it('keeps every directive that applied in raw', () => {
    expect(robotsDirectives('HeedBot', [meta('robots', 'NoIndex, Max-Snippet: 3')], 'heedbot: nofollow').raw).toEqual([
      'noindex',
      'max-snippet:3',
      'nofollow',
    ]);
  });
});
