/** Crawler processes sharing robots.txt records through Redis: `runFleet({ startUrls, userAgent, workers })`. */
export { runFleet, FleetWorkerError, type FleetOptions, type FleetSummary } from './fleet.js';
export { startLocalRedis, RedisServerStartError, type LocalRedis } from './redis-server.js';
export type { WorkerReport, WorkerTask } from './worker-protocol.js';
