import type { RobotsManagerLike } from '@heed/crawlee';

/** A manager that is never asked anything: for tests where attach() must fail, or never check. */
export const idleManager: RobotsManagerLike = {
  decide: async () => {
    throw new Error('not used');
  },
  sitemaps: async () => [],
  crawlDelay: async () => undefined,
  prefetch: async () => {},
  close: async () => {},
};
