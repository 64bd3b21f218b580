/**
 * @heed/parser — robots.txt parsing and matching exactly as Google's reference implementation
 * (google/robotstxt, `robots.cc`) does it: RFC 9309 plus Google's leniencies (key typos, keys
 * matched by prefix, a missing colon, any BOM prefix, lines cut at 16,663 bytes, the
 * `index.html` rule). Where RFC 9309 reads differently (`/robots.txt` always allowed, `%41` equal
 * to `A`), the RFC reading is an option, off by default. No I/O, no dependencies.
 *
 * It also reads the AI-usage preferences robots.txt files state, which Google's parser ignores:
 * `Content-Usage` (draft-ietf-aipref-attach, vocabulary draft-ietf-aipref-vocab) and
 * `Content-Signal` (Cloudflare's Content Signals), answered per URL by `RobotsTxt#usage`. Crawl
 * verdicts are unchanged by them. Every check takes one product token or a list of them, as
 * google/robotstxt's `AllowedByRobots()` takes a vector of user agents.
 */
export { parseRobotsTxt, RobotsTxt, InvalidParseOptionsError } from './robots-txt.js';
export { tokenize, classifyKey, MAX_LINE_BYTES, DEFAULT_MAX_BYTES } from './tokenize.js';
export type { Tokenized, TokenizeOptions } from './tokenize.js';
export { productToken } from './user-agent.js';
export { canonicalPath } from './url.js';
export { pathPattern } from './pattern.js';
export type { PathPattern } from './pattern.js';
export { parseCrawlDelay } from './compile.js';
export type * from './types.js';
export { UsageVerdict } from './usage/verdict.js';
export type { UsageDecision, UsageReason, AppliedStatement } from './usage/verdict.js';
export type { UsagePreference, UsageSignal, UsageCategory } from './usage/vocabulary.js';
export { USAGE_CATEGORIES } from './usage/vocabulary.js';
export { parseUsageHeader } from './usage/header.js';
export type { UsageStatement, StatedPreference } from './usage/statement.js';
export { lint, InvalidLintOptionsError, DIAGNOSTIC_CODES, ALL_DIAGNOSTIC_CODES } from './lint/index.js'; export type { Diagnostic, DiagnosticCode, Severity, LintOptions } from './lint/index.js';
