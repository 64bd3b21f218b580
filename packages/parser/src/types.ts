/**
 * Public types of `@heed/parser`. Kept in one module so the tokenizer, the compiler, the matcher,
 * `explain()` and the linter all speak the same vocabulary.
 */
import type { DirectiveKind } from './directive-kinds.js';
import type { UsageVerdict } from './usage/verdict.js';
import type { ProductTokens } from './user-agent.js';

export type { DirectiveKind };

/** What a physical line of the file turned out to be. */
export type LineKind = 'blank' | 'comment' | 'directive' | 'invalid';

/** How a line ended: Google accepts all three, and a file may mix them. */
export type LineEnding = 'lf' | 'crlf' | 'cr' | 'eof';

/**
 * One physical line of a robots.txt file, as the tokenizer saw it. The rule compiler, `explain()`
 * and `lint()` all read these records: there is one tokenizer.
 */
export interface LineRecord {
  /** 1-based line number, counted the way Google's parser counts (CRLF is one line end). */
  readonly line: number;
  /** Byte offset of the line's first byte in the body (a skipped BOM counts: after one, line 1 starts at 3). */
  readonly offset: number;
  /** Length of the line in bytes, before the 16,663-byte cut. */
  readonly byteLength: number;
  /** The line as UTF-8 text (invalid sequences replaced), after the cut, before comment removal. */
  readonly text: string;
  readonly kind: LineKind;
  /** The directive, for `kind === 'directive'`. */
  readonly directive?: DirectiveKind | undefined;
  /** The key as written (white space trimmed), for directives and for invalid lines that had one. */
  readonly key?: string | undefined;
  /** The value as written: comment removed, white space trimmed, UTF-8 text. */
  readonly value?: string | undefined;
  /**
   * The key was accepted only through Google's leniency: a typo (`dissallow`, `useragent`, ...) or a
   * longer word that starts with a known key (`Disallowed:`).
   */
  readonly keyTypo: boolean;
  /** The key and value were separated by white space instead of `:` (Google accepts that). */
  readonly missingColon: boolean;
  /** The line was longer than 16,663 bytes; the rest was ignored. */
  readonly tooLong: boolean;
  /** The line carried a `#` comment (whole-line or end-of-line). */
  readonly hasComment: boolean;
  /** The line started with white space. */
  readonly leadingWhitespace: boolean;
  /** How the line ended. */
  readonly ending: LineEnding;
}

/** A rule of a group: `allow` or `disallow` with its pattern. */
export interface Rule {
  readonly directive: 'allow' | 'disallow';
  /** The pattern as written in the file (UTF-8 text). */
  readonly pattern: string;
  /** The pattern as matched: non-ASCII bytes and `%xx` escapes normalised to upper-case `%XX`. */
  readonly normalizedPattern: string;
  /** 1-based line number of the rule. */
  readonly line: number;
}

/** A `user-agent:` line of a group. */
export interface AgentLine {
  /** The value as written, e.g. `Googlebot-News/1.0`. */
  readonly value: string;
  /** What is matched: `*`, or the leading `[A-Za-z_-]` run of the value (may be empty). */
  readonly token: string;
  readonly line: number;
}

/** A group: consecutive `user-agent` lines and the rules that follow them. */
export interface Group {
  /** 0-based index of the group in the file. */
  readonly index: number;
  readonly agents: readonly AgentLine[];
  readonly rules: readonly Rule[];
  /** The group's first `crawl-delay` value in seconds, when it had a valid one. */
  readonly crawlDelay?: number;
  /** Line of the group's first `user-agent`. */
  readonly line: number;
}

/** Any other `key: value` line (`host`, `clean-param`, `noindex`, ...), with its position. */
export interface OtherDirective {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/**
 * Why the rules gave the answer they gave (the manager's `VerdictReason` says why an origin's
 * verdict came from the rules or from the status policy).
 */
export type RuleReason =
  /** A rule matched and decided (see `rule`). */
  | 'rule'
  /** Groups applied, but none of their rules matched the URL: allowed. */
  | 'no-matching-rule'
  /** No group names this agent and there is no `*` group: allowed. */
  | 'no-group'
  /** `/robots.txt` is always allowed (RFC 9309 reading; only with `implicitRobotsTxtAllow`). */
  | 'robots-txt-implicit-allow';

/**
 * A verdict: allowed or not, why, and the deciding line. The parser's `decide()` answers with
 * `RuleVerdict` (reasons from the rules); the manager's `Verdict` extends it with its own reasons
 * (the status policy may decide instead of the rules), the URL, origin and record. One shape from
 * parser to plugin: what decided in detail is asked separately ({@link RuleDetail}), because a
 * crawler needs it only for the URLs it skips.
 */
export interface RuleVerdict<Reason extends string = RuleReason> {
  readonly allowed: boolean;
  readonly reason: Reason;
  /** 1-based line of the deciding rule; 0 when no rule decided (allowed by default): Heed's one way to say "no deciding line", as google/robotstxt's `matching_line()`. */
  readonly line: number;
}

/** What decided a verdict of the rules: the rule, the groups and how they were chosen, the path compared. */
export interface RuleDetail {
  /** The deciding rule, when one matched. */
  readonly rule?: Rule;
  /** The groups whose rules were considered (those naming the agent, else the `*` groups). */
  readonly groups: readonly Group[];
  /** Whether the groups applied because they name the agent, or because they are `*` groups. */
  readonly matchedBy: 'product-token' | 'wildcard' | 'none';
  /** The path, parameters and query that were compared, in canonical form. */
  readonly path: string;
}

/** The verdict for one URL and one user-agent, with what decided it (`RobotsTxt#explain`). */
export interface Explanation extends RuleVerdict, RuleDetail {
  /** The product token the verdict is for, or the list of tokens (a frozen copy of the list asked with). */
  readonly productToken: ProductTokens;
  /**
   * The usage verdict of the URL (AI-usage preferences, see `RobotsTxt#usage`), present only when
   * the file has `Content-Usage` or `Content-Signal` lines.
   */
  readonly usage?: UsageVerdict;
}
