/**
 * One statement of preference: the dictionary of a `Content-Usage` or `Content-Signal` line (or
 * header) read against its vocabulary (vocabulary.ts). Parsing follows draft-ietf-aipref-vocab's
 * processing algorithm: parse an RFC 9651 Dictionary; for each known label, the token meaning
 * allow or disallow states a preference; anything else (absent, another token, another type) leaves
 * it unknown; unknown keys and all parameters are ignored; a dictionary that fails to parse states
 * nothing. What the lint reports is collected on the way, so there is one reading of a statement.
 */
import { parseDictionary, type DictionaryMember, type FieldErrorKind } from './structured-fields.js';
import { otherVocabulary, type UsageCategory, type UsageSignal, type UsageVocabulary } from './vocabulary.js';

/** A preference a statement states explicitly for one category. */
export interface StatedPreference {
  readonly preference: 'allow' | 'disallow';
  /** The dictionary key as written: `ai-train` in a Content-Signal line, `train-ai` in a Content-Usage one. */
  readonly label: string;
}

/** A `Content-Usage` or `Content-Signal` statement, parsed. */
export interface UsageStatement {
  readonly signal: UsageSignal;
  /** 1-based line in robots.txt; 0 for a statement from an HTTP header. */
  readonly line: number;
  /** The value as written (for a Content-Usage line: path and dictionary). */
  readonly value: string;
  /**
   * Content-Usage lines: the path pattern as written (`""` when the line has none: it matches every
   * path, with the lowest priority).
   */
  readonly path?: string;
  /** The categories this statement states, with their preference. */
  readonly preferences: ReadonlyMap<UsageCategory, StatedPreference>;
  /** The dictionary did not parse: the statement states nothing. */
  readonly invalid: boolean;
}

/** What is wrong with a statement, for the lint. */
export type StatementProblem =
  | { readonly kind: 'invalid-dictionary'; readonly error: FieldErrorKind | 'empty'; readonly message: string; readonly offset: number }
  | { readonly kind: 'unknown-category'; readonly key: string }
  | {
      readonly kind: 'wrong-value';
      readonly key: string;
      readonly written: string;
      /** The token meant, when the other signal's spelling was used. */ readonly meant?: string;
    };

export interface ParsedStatement {
  readonly statement: UsageStatement;
  readonly problems: readonly StatementProblem[];
}

const NO_PREFERENCES: ReadonlyMap<UsageCategory, StatedPreference> = new Map();

/**
 * Reads `dictionary` (a byte string: one char per byte) against `vocabulary`. `offset` is where the
 * dictionary starts in `value` (for the problems' offsets).
 */
export function readStatement(
  vocabulary: UsageVocabulary,
  dictionary: string,
  base: { line: number; value: string; path?: string },
  offset = 0,
): ParsedStatement {
  const parsed = parseDictionary(dictionary);
  const head =
    base.path === undefined
      ? { signal: vocabulary.signal, line: base.line, value: base.value }
      : { signal: vocabulary.signal, line: base.line, value: base.value, path: base.path };
  if (!parsed.ok) {
    return {
      statement: { ...head, preferences: NO_PREFERENCES, invalid: true },
      problems: [{ kind: 'invalid-dictionary', error: parsed.error, message: parsed.message, offset: offset + parsed.offset }],
    };
  }
  const problems: StatementProblem[] = [];
  if (parsed.dictionary.size === 0)
    problems.push({ kind: 'invalid-dictionary', error: 'empty', message: 'no preference is stated', offset });
  const preferences = new Map<UsageCategory, StatedPreference>();
  const other = otherVocabulary(vocabulary);
  for (const [key, member] of parsed.dictionary) {
    const category = vocabulary.labels.get(key);
    if (category === undefined) {
      if (!vocabulary.otherKeys.has(key)) problems.push({ kind: 'unknown-category', key });
      continue;
    }
    const token = member.kind === 'item' && member.value.type === 'token' ? member.value.value : undefined;
    if (token === vocabulary.allow) preferences.set(category, { preference: 'allow', label: key });
    else if (token === vocabulary.disallow) preferences.set(category, { preference: 'disallow', label: key });
    else {
      const written = writtenValue(member);
      const meant = token === other.allow ? vocabulary.allow : token === other.disallow ? vocabulary.disallow : undefined;
      problems.push(meant === undefined ? { kind: 'wrong-value', key, written } : { kind: 'wrong-value', key, written, meant });
    }
  }
  return { statement: { ...head, preferences: preferences.size === 0 ? NO_PREFERENCES : preferences, invalid: false }, problems };
}

function writtenValue(member: DictionaryMember): string {
  if (member.kind === 'inner-list') return '(…)';
  const { value } = member;
  switch (value.type) {
    case 'boolean':
      return value.value ? '(no value)' : '?0';
    case 'string':
    case 'display-string':
      return `"${value.value}"`;
    default:
      return String(value.value);
  }
}
