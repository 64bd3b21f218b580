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
 *
 * This file is the whole public API (the "Exports" section of docs/reference.md lists the same names); there is no
 * other entry point.
 */
export { parseRobotsTxt, RobotsTxt, decidingLineOfPacked, type ParseOptions } from './robots-txt.js';
export { productToken, type ProductTokens } from './user-agent.js';
export type { RuleVerdict, RuleDetail, Explanation, RuleReason, Group, Rule, AgentLine, OtherDirective } from './types.js';
export { UsageVerdict } from './usage/verdict.js';
export type { UsageDecision, UsageReason, AppliedStatement } from './usage/verdict.js';
export type { UsagePreference, UsageSignal, UsageCategory } from './usage/vocabulary.js';
export { USAGE_CATEGORIES } from './usage/vocabulary.js';
export { parseUsageHeader } from './usage/header.js';
export type { UsageStatement, StatedPreference } from './usage/statement.js';
export { pathPatternList, type PathPatternList } from './pattern.js';
export { lint, DIAGNOSTIC_CODES } from './lint/index.js';
export { robotsTxtLines } from './lines.js';
export { printable } from './printable.js';
export type { Diagnostic, DiagnosticCode, Severity, LintOptions } from './lint/index.js';
export { HeedError, InvalidOptionsError } from './errors.js';
export { defineOptions, option, describeValue } from './options/index.js';
export type {
  OptionsDefinition,
  OptionsInput,
  ResolvedOptions,
  OptionField,
  OptionFields,
  InputOfFields,
  OutputOfFields,
  DefaultsOfFields,
  DefineOptionsSettings,
  NumberSpec,
  ListSpec,
  ObjectSpec,
  CustomCheck,
  Fail,
  FieldContext,
} from './options/index.js';
