/** Two crawlers, two user-agents, one `RobotsManager` over a persistent `KeyValueStore`: `runSharedCache(startUrls, options)`. */
export { runSharedCache, type CrawlerRun, type SharedCacheOptions, type SharedCacheRun } from './shared-cache.js';
