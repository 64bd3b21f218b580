/**
 * `@heed/parser/internal`: what Heed's own packages share and users do not call. **Not public
 * API**: names and behaviour here change in any release, without a semver major; import from
 * `@heed/parser` instead.
 *
 * - option validation (`check-options.ts`): one set of checks and one wording for every package;
 * - the directive kinds (`directive-kinds.ts`), declared once;
 * - group selection (`selectGroups`) and the `*`-agent rule, for the `heed` command line.
 */
export {
  MAX_TIMER_MS,
  describe,
  isRecord,
  checkKnownKeys,
  optionError,
  numberOption,
  timerOption,
  booleanOption,
  functionOption,
  choiceOption,
  proxyUrlOption,
} from './check-options.js';
export type { OptionScope, NumberRange } from './check-options.js';
export { HeedError, InvalidOptionsError } from './errors.js';
export { DIRECTIVE_KINDS, KIND } from './directive-kinds.js';
export { selectGroups, type AppliedGroups } from './compile.js';
export { isGlobalAgent } from './user-agent.js';

// Parts of the parser the manager, the plugin and the tests build on; users call `parseRobotsTxt`.
export { tokenize, classifyKey, MAX_LINE_BYTES, DEFAULT_MAX_BYTES } from './tokenize.js';
export type { Tokenized, TokenizeOptions } from './tokenize.js';
export type { LineRecord, LineKind, LineEnding } from './types.js';
export type { DirectiveKind } from './directive-kinds.js';
export { canonicalPath } from './url.js';
export { pathPattern, pathPatternList, type PathPattern, type PathPatternList } from './pattern.js';
export { parseCrawlDelay } from './compile.js';
export { parseUsageHeader } from './usage/header.js';
export type { UsageStatement, StatedPreference } from './usage/statement.js';
export { ALL_DIAGNOSTIC_CODES } from './lint/index.js';
