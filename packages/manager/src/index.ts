/**
 * @heed/manager — one robots.txt record per origin: fetched once (in this process and, with a
 * shared store, across processes), mapped to allow/disallow by a documented status policy,
 * cached with expiry and shared between crawlers, runs and machines.
 *
 * It implements RFC 9309 §2.3–2.4 (access results, caching) with Google's documented handling:
 * 2xx → rules; 3xx beyond 5 hops → unavailable; 4xx → unavailable (allow all); 5xx, 429 and network
 * errors → unreachable (disallow all, the last good copy meanwhile). Departures from the RFC: 429
 * counts as unreachable (the RFC lists only 5xx); after 30 days unreachable with no good copy
 * everything is allowed (Google's rule, the RFC's "MAY"); rules fetched through a redirect to
 * another origin still apply to the origin asked for (as Google does); a body in UTF-16 with a
 * byte-order mark is decoded to UTF-8 (Google finds no rules in it; the BOM makes it unambiguous).
 *
 * This file is the whole public API (the "Exports" section of docs/reference.md lists the same names); there is no
 * other entry point. `boundedGet`, `decoded`, `parseRetryAfter` and the option checks are here for
 * packages that build on Heed (`@heed/crawlee` fetches sitemaps, reads a page's `Retry-After` and
 * checks its options with them).
 */
export { RobotsManager } from './manager.js';
export { originOf } from './origin.js';
export { parseRetryAfter } from './retry-after.js';
export type { RobotsManagerOptions } from './options.js';
export type { Verdict, VerdictRecord, ManagerStats, OriginSummary, FetchContext } from './manager.js';
export type { VerdictReason } from './policy.js';
export { UsageReport } from './usage/index.js';
export type { UsageQuery, UsageEvidence, UsageEvidenceSignal, UsageSource, PurposeCheck } from './usage/index.js';
export { encodeRecord, decodeRecord } from './record.js';
export type {
  RobotsRecord,
  OkRecord,
  UnavailableRecord,
  UnreachableRecord,
  RobotsRecordStatus,
  RecordProblem,
  GoodCopy,
} from './record.js';
export type { RobotsStore, StoreLock, Log, CrawlSlot, SharedCrawlClock } from './cache/store.js';
export { MemoryStore } from './cache/memory.js';
export type { MemoryStoreOptions } from './cache/memory.js';
export { KeyValueStoreStore } from './cache/key-value-store.js';
export type { KeyValueStoreStoreOptions, KeyValueStoreOpenOptions, KeyValueStoreLike } from './cache/key-value-store.js';
export { RedisStore } from './cache/redis.js';
export type { RedisStoreOptions, RedisClientLike } from './cache/redis.js';
export { HeedError, InvalidOptionsError, RobotsFetchError, ManagerClosedError, InvalidUrlError, MissingDependencyError } from './errors.js';
export type { RobotsFetchErrorCode } from './errors.js';
export { SnapshotDirectory, SnapshotFileError } from './snapshots/directory.js';
export { snapshotIdOf, SNAPSHOT_OUTCOMES, sightingsOf } from './snapshots/snapshot.js';
export type { SnapshotStore, StoredSnapshot, SnapshotSighting, SightingLog, SnapshotOutcome } from './snapshots/snapshot.js';
export { boundedGet } from './fetch/bounded-get.js';
export type { BoundedGetOptions, BoundedResponse, BoundedRedirectFailure } from './fetch/bounded-get.js';
export { decoded, DecodeError, type ContentCoding } from './fetch/decode.js';
export { checkUserAgent, proxyUrlCheck, type UserAgentCheck } from './options.js';
export { RequestSigner, signatureHeadersOf } from './signature/request-signer.js';
export type { RequestSignerOptions, SignatureHeaderSet } from './signature/request-signer.js';
export { loadSigningKey, jwkThumbprint, SigningKeyError } from './signature/signing-key.js';
export type { SigningKey, Ed25519Jwk } from './signature/signing-key.js';
export { signatureField, type SignatureOptions } from './signature/signature-option.js';
export {
  generateKeyPair,
  keyDirectory,
  keyDirectoryHeaders,
  KEY_DIRECTORY_PATH,
  KEY_DIRECTORY_MEDIA_TYPE,
} from './signature/key-directory.js';
