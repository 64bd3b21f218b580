/**
 * `RobotsTxt`: a parsed robots.txt file. Parsing keeps the groups; the rule set of each user-agent
 * is compiled the first time that agent asks, and cached on the object.
 */
import { collectDirectivesFromBody, compileAgent, selectGroups, type AgentRules } from './compile.js';
import { decodeUnreserved } from './escape.js';
import { prepareBody } from './tokenize.js';
import type { Explanation, Group, OtherDirective, ParseOptions } from './types.js';
import { canonicalPath } from './url.js';

const KNOWN_OPTIONS = new Set(['maxBytes', 'decodeUnreservedEscapes', 'implicitRobotsTxtAllow', 'acceptTypos', 'acceptMissingColon']);
/** Compiled agents kept per file: crawlers use one or a few; a bound keeps hostile callers in check. */
const MAX_CACHED_AGENTS = 64;

/** Thrown for an options object the parser cannot honour; the message says what to change. */
export class InvalidParseOptionsError extends TypeError {
  override readonly name = 'InvalidParseOptionsError';
}

function checkOptions(options: ParseOptions | undefined): ParseOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new InvalidParseOptionsError(`parseRobotsTxt options must be an object (got ${typeof options})`);
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new InvalidParseOptionsError(`Unknown parseRobotsTxt option "${key}"; known options are: ${[...KNOWN_OPTIONS].join(', ')}`);
    }
  }
  for (const key of ['decodeUnreservedEscapes', 'implicitRobotsTxtAllow', 'acceptTypos', 'acceptMissingColon'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidParseOptionsError(`parseRobotsTxt option "${key}" must be true or false (got ${String(value)})`);
    }
  }
  const { maxBytes } = options;
  if (maxBytes !== undefined && (typeof maxBytes !== 'number' || !(maxBytes >= 0))) {
    throw new InvalidParseOptionsError(`parseRobotsTxt option "maxBytes" must be a non-negative number (got ${String(maxBytes)}); omit it for the 500 KiB default`);
  }
  return options;
}

/** A parsed robots.txt file. Create it with {@link parseRobotsTxt}. */
export class RobotsTxt {
  /** The groups of the file, in order. */
  readonly groups: readonly Group[];
  /** Every `sitemap:` value, in file order. */
  readonly sitemaps: readonly string[];
  /** Every other `key: value` line (`host`, `clean-param`, `crawl-delay`, ...), in file order. */
  readonly others: readonly OtherDirective[];
  /** Size of the body in bytes (before the `maxBytes` cut). */
  readonly byteLength: number;
  /** The body was longer than `maxBytes`; its tail was ignored. */
  readonly truncated: boolean;

  private readonly decodeEscapes: boolean;
  private readonly robotsTxtAllowed: boolean;
  private readonly agents = new Map<string, AgentRules>();

  constructor(input: string | Uint8Array, options?: ParseOptions) {
    const checked = checkOptions(options);
    const safeInput = typeof input === 'string' || input instanceof Uint8Array ? input : String(input ?? '');
    const prepared = prepareBody(safeInput, checked.maxBytes);
    const directives = collectDirectivesFromBody(prepared, { acceptTypos: checked.acceptTypos !== false, acceptMissingColon: checked.acceptMissingColon !== false });
    this.groups = directives.groups;
    this.sitemaps = directives.sitemaps;
    this.others = directives.others;
    this.byteLength = prepared.byteLength;
    this.truncated = prepared.truncated;
    this.decodeEscapes = checked.decodeUnreservedEscapes === true;
    this.robotsTxtAllowed = checked.implicitRobotsTxtAllow === true;
  }

  /**
   * Whether `userAgent` may fetch `url`. `userAgent` is a product token (`"HeedBot"`), compared
   * case-insensitively with the leading `[A-Za-z_-]` run of each `user-agent:` value, exactly as
   * Google does: pass `productToken(header)`, not a whole header. Any string is accepted as URL
   * (see {@link canonicalPath}).
   */
  isAllowed(url: string, userAgent: string): boolean {
    const path = this.pathOf(url);
    if (this.robotsTxtAllowed && path === '/robots.txt') return true;
    const winner = this.rulesFor(userAgent).matcher.match(path);
    return winner === undefined || winner.allow || winner.priority === 0;
  }

  /** The verdict for `url` with the rule, line and groups that decided it. */
  explain(url: string, userAgent: string): Explanation {
    const token = typeof userAgent === 'string' ? userAgent : '';
    const path = this.pathOf(url);
    const rules = this.rulesFor(token);
    const base = { userAgent: token, path, groups: rules.groups, matchedBy: rules.matchedBy };
    if (this.robotsTxtAllowed && path === '/robots.txt') return { ...base, allowed: true, reason: 'robots-txt-implicit-allow', line: 0 };
    const winner = rules.matcher.match(path);
    if (winner === undefined) return { ...base, allowed: true, reason: rules.matchedBy === 'none' ? 'no-group' : 'no-matching-rule', line: 0 };
    const allowed = winner.allow || winner.priority === 0;
    return { ...base, allowed, reason: 'rule', line: winner.line, rule: winner.source };
  }

  /** The crawl-delay in seconds of the groups that apply to `userAgent`, if one is set. */
  crawlDelay(userAgent: string): number | undefined {
    for (const group of selectGroups(this.groups, typeof userAgent === 'string' ? userAgent : '').groups) {
      if (group.crawlDelay !== undefined) return group.crawlDelay;
    }
    return undefined;
  }

  /** The groups that apply to `userAgent` (merged groups naming it, else the `*` groups). */
  groupsFor(userAgent: string): readonly Group[] {
    return this.rulesFor(userAgent).groups;
  }

  private pathOf(url: string): string {
    const path = canonicalPath(typeof url === 'string' ? url : String(url));
    return this.decodeEscapes ? decodeUnreserved(path) : path;
  }

  private rulesFor(userAgent: string): AgentRules {
    const cached = this.agents.get(userAgent);
    if (cached !== undefined) return cached;
    const token = typeof userAgent === 'string' ? userAgent : '';
    const rules = compileAgent(this.groups, token, { decodeUnreservedEscapes: this.decodeEscapes });
    if (this.agents.size >= MAX_CACHED_AGENTS) this.agents.clear();
    this.agents.set(token, rules);
    return rules;
  }
}

/**
 * Parses a robots.txt body. A `Uint8Array` is read as the exact bytes it holds; a string is UTF-8
 * encoded first. Never throws for any body; throws {@link InvalidParseOptionsError} for bad options.
 */
export function parseRobotsTxt(input: string | Uint8Array, options?: ParseOptions): RobotsTxt {
  return new RobotsTxt(input, options);
}
