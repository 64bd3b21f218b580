/**
 * Which tap a crawler gets: the crawler's own shape decides (4.x crawlers have a request manager
 * where 3.x have a request queue), the release found confirms (4.x crawlers load as ES modules, so
 * their release is read from the `@crawlee/core` beside them). The only place that tells majors apart.
 */
import { isCrawlerV4 } from './v4/internals.js';
import { majorOf } from './crawler-shape.js';
import type { MajorTap } from './tap.js';
import { crawleeV3 } from './v3/index.js';
import { crawleeV4 } from './v4/index.js';

export function pickTap(crawler: object, release: string | undefined): MajorTap {
  return isCrawlerV4(crawler) || majorOf(release) === 4 ? crawleeV4 : crawleeV3;
}
