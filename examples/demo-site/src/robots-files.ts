import type { DemoOrigins } from './types.js';

/** Product token of the demo crawler; the shop's robots.txt has a group of its own for it. */
export const DEMO_BOT = 'HeedDemoBot';

/** Full `User-Agent` header the demo crawlers send. */
export const DEMO_USER_AGENT = 'HeedDemoBot/1.0 (demo crawler of the Heed examples; runs on 127.0.0.1)';

/** A user-agent with no group of its own anywhere: the `*` groups apply to it. */
export const OTHER_BOT = 'HeedOtherBot';

/** Full `User-Agent` header for {@link OTHER_BOT}. */
export const OTHER_USER_AGENT = 'HeedOtherBot/1.0 (second demo crawler of the Heed examples)';

/** Seconds between two fetches of the blog, as its robots.txt asks. */
export const BLOG_CRAWL_DELAY_SECONDS = 1;

/**
 * The shop's robots.txt, one string per line. Kept as lines so the expected outcome can point at
 * the exact deciding line number.
 */
export function shopRobotsLines(origins: DemoOrigins): readonly string[] {
  return [
    '# Demo shop. Crawlers without a group of their own get the first group.',
    'User-agent: *',
    'Disallow: /members/',
    'Disallow: /private/',
    'Disallow: /tracking/',
    '',
    '# The demo bot has its own group: the lines above do not apply to it at all.',
    `User-agent: ${DEMO_BOT}`,
    'Allow: /private/press/',
    'Disallow: /private/',
    'Disallow: /*?sort=',
    'Disallow: /*.pdf$',
    'Disallow: /cart',
    'Disallow: /tracking/',
    '',
    `Sitemap: ${origins.shop}/sitemap-index.xml`,
  ];
}

/** The blog's robots.txt (served at `/site/robots.txt`, where `/robots.txt` redirects). */
export function blogRobotsLines(origins: DemoOrigins): readonly string[] {
  return [
    '# Demo blog. /robots.txt redirects here with a 301.',
    'User-agent: *',
    'Disallow: /drafts/',
    `Crawl-delay: ${BLOG_CRAWL_DELAY_SECONDS}`,
    '',
    `Sitemap: ${origins.blog}/sitemap.txt`,
  ];
}

/** 1-based number of the first line equal to `text` after the line equal to `after` (if given). */
export function lineNumberOf(lines: readonly string[], text: string, after?: string): number {
  const start = after === undefined ? 0 : lines.indexOf(after) + 1;
  const index = lines.indexOf(text, start);
  if (index < 0) throw new Error(`demo-site bug: robots.txt has no line "${text}"`);
  return index + 1;
}
