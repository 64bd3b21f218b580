/**
 * TDMRep (`/.well-known/tdmrep.json`): parse a body, then ask per URL. Pure, no I/O; the manager
 * fetches and caches the file (a later step).
 */
export { parseTdmRep, MAX_TDMREP_BYTES, MAX_TDMREP_RULES } from './parse.js';
export type { TdmRepFile, TdmRepRule } from './parse.js';
export { TdmRepMatcher, TDM_CATEGORIES } from './match.js';
export type { TdmRepVerdict } from './match.js';
