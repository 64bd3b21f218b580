/**
 * `@heed/manager/internal`: what `@heed/crawlee` (and Heed's tests) share with the manager and
 * users do not call. **Not public API**: names and behaviour here change in any release, without
 * a semver major; import from `@heed/manager` instead.
 */
export { didYouMean } from './did-you-mean.js';
export { checkUserAgent, type UserAgentCheck } from './options.js';
export type { ResolvedOptions } from './options.js';
export { robotsTxtUrl } from './origin.js';
export { fetchRobotsTxt, FETCH_DEFAULTS } from './fetch.js';
export type { FetchOptions, FetchOutcome, FetchResponseOutcome, FetchRedirectOutcome, FetchNetworkOutcome, FetchHeaders } from './fetch.js';
export { decideRecord, effectivePolicy, cacheTtl, parseRetryAfter, retryDelay, POLICY_DEFAULTS } from './policy.js';
export type { StatusPolicyOptions, EffectivePolicy } from './policy.js';
export { RECORD_VERSION } from './record.js';
export { parseTdmRep, TdmRepMatcher } from './tdmrep/index.js';
export type { TdmRepFile, TdmRepRule, TdmRepVerdict } from './tdmrep/index.js';
export { TDMREP_PATH } from './usage/index.js';
export { decoded, contentCoding, DecodeError, type ContentCoding } from './decode.js';
export { boundedGet, type BoundedGetOptions, type BoundedResponse, type BoundedRedirectFailure } from './bounded-get.js';
