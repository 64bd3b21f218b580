/**
 * The Crawlee 4 adapter: Crawlee's own robots.txt check turned off, then the hooks of `hooks.ts`
 * through 4.x's public extension points (see `crawler-v4.ts` for the members used).
 */
import type { Adapter } from '../adapter.js';
import { turnOffCrawleeRobotsCheckV4 } from './crawler-v4.js';
import { attachHooksV4 } from './hooks.js';

export const attachV4: Adapter = async (parts) => {
  turnOffCrawleeRobotsCheckV4(parts.crawler);
  await attachHooksV4(parts);
};
