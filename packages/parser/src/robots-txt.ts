/**
 * `RobotsTxt`: a parsed robots.txt file. Parsing keeps the groups; the rule set of each user-agent
 * is compiled the first time that agent asks, and cached on the object.
 */
import { compileAgent, materializeTable, selectGroups, type CompiledAgent, type Directives } from './compile.js';
import { decodeUnreserved } from './escape.js';
import { buildTable, MAX_BODY_BYTES, type DirectiveTable } from './table.js';
import { prepareBody } from './tokenize.js';
import type { Explanation, Group, OtherDirective, ParseOptions, Rule } from './types.js';
import { canonicalPath } from './url.js';

const KNOWN_OPTIONS = new Set(['maxBytes', 'decodeUnreservedEscapes', 'implicitRobotsTxtAllow', 'acceptTypos', 'acceptMissingColon']);
/** Compiled agents kept per file: crawlers use one or a few; a bound keeps hostile callers in check. */
const MAX_CACHED_AGENTS = 64;
/** Line numbers and row indices are packed into integers: bodies stay within 8 MiB. */
const MAX_MAX_BYTES = MAX_BODY_BYTES;

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
  if (maxBytes !== undefined && (typeof maxBytes !== 'number' || !(maxBytes >= 0) || maxBytes > MAX_MAX_BYTES)) {
    throw new InvalidParseOptionsError(
      `parseRobotsTxt option "maxBytes" must be a number from 0 to ${MAX_MAX_BYTES} (got ${String(maxBytes)}); omit it for the 500 KiB default`,
    );
  }
  return options;
}

/** A parsed robots.txt file. Create it with {@link parseRobotsTxt}. */
export class RobotsTxt {
  /** Size of the body in bytes (before the `maxBytes` cut). */
  readonly byteLength: number;
  /** The body was longer than `maxBytes`; its tail was ignored. */
  readonly truncated: boolean;

  private readonly table: DirectiveTable;
  private readonly flags: number;
  private directives: Directives | undefined;
  // Most crawlers ask for one agent: it gets a field; more agents share a small map.
  private lastToken: string | undefined;
  private lastAgent: CompiledAgent | undefined;
  private agents: Map<string, CompiledAgent> | undefined;

  constructor(input: string | Uint8Array, options?: ParseOptions) {
    const checked = checkOptions(options);
    const safeInput = typeof input === 'string' || input instanceof Uint8Array ? input : String(input ?? '');
    const prepared = prepareBody(safeInput, checked.maxBytes);
    this.table = buildTable(prepared, { acceptTypos: checked.acceptTypos !== false, acceptMissingColon: checked.acceptMissingColon !== false });
    this.byteLength = prepared.byteLength;
    this.truncated = prepared.truncated;
    this.flags = (checked.decodeUnreservedEscapes === true ? DECODE_ESCAPES : 0) | (checked.implicitRobotsTxtAllow === true ? ROBOTS_TXT_ALLOWED : 0);
  }

  /**
   * Directive lines kept (rules, user-agents, sitemaps and other keys; not comments or blank
   * lines). Beside {@link byteLength} it is what a parsed file's memory grows with, so a cache can
   * count what it holds.
   */
  get directiveCount(): number {
    return this.table.count;
  }

  /** The groups of the file, in order. */
  get groups(): readonly Group[] {
    return this.objects().groups;
  }

  /** Every `sitemap:` value, in file order. */
  get sitemaps(): readonly string[] {
    return this.objects().sitemaps;
  }

  /** Every other `key: value` line (`host`, `clean-param`, `crawl-delay`, ...), in file order. */
  get others(): readonly OtherDirective[] {
    return this.objects().others;
  }

  /**
   * Whether `userAgent` may fetch `url`. `userAgent` is a product token (`"HeedBot"`), compared
   * case-insensitively with the leading `[A-Za-z_-]` run of each `user-agent:` value, exactly as
   * Google does: pass `productToken(header)`, not a whole header. Any string is accepted as URL
   * (see {@link canonicalPath}).
   */
  isAllowed(url: string, userAgent: string): boolean {
    const path = this.pathOf(url);
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return true;
    return this.compiled(userAgent).matcher.allows(path);
  }

  /** The verdict for `url` with the rule, line and groups that decided it. */
  explain(url: string, userAgent: string): Explanation {
    const token = typeof userAgent === 'string' ? userAgent : '';
    const path = this.pathOf(url);
    const compiled = this.compiled(token);
    const groups = this.appliedGroups(token, compiled);
    const base = { userAgent: token, path, groups, matchedBy: compiled.matchedBy };
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return { ...base, allowed: true, reason: 'robots-txt-implicit-allow', line: 0 };
    const winner = compiled.matcher.match(path);
    if (winner === undefined) return { ...base, allowed: true, reason: compiled.matchedBy === 'none' ? 'no-group' : 'no-matching-rule', line: 0 };
    // The deciding rule is the very object of the group that holds it.
    const rule = ruleAtLine(groups, winner.line);
    if (rule === undefined) return { ...base, allowed: winner.allowed, reason: 'rule', line: winner.line };
    return { ...base, allowed: winner.allowed, reason: 'rule', line: winner.line, rule };
  }

  /** The crawl-delay in seconds of the groups that apply to `userAgent`, if one is set. */
  crawlDelay(userAgent: string): number | undefined {
    for (const group of this.groupsFor(userAgent)) {
      if (group.crawlDelay !== undefined) return group.crawlDelay;
    }
    return undefined;
  }

  /** The groups that apply to `userAgent` (merged groups naming it, else the `*` groups). */
  groupsFor(userAgent: string): readonly Group[] {
    const token = typeof userAgent === 'string' ? userAgent : '';
    return this.appliedGroups(token, this.compiled(token));
  }

  /** The groups that apply to `token`, selected once per compiled agent (explain() runs per check). */
  private appliedGroups(token: string, compiled: CompiledAgent): readonly Group[] {
    compiled.groups ??= compiled.matchedBy === 'none' ? [] : selectGroups(this.groups, token).groups;
    return compiled.groups;
  }

  private objects(): Directives {
    this.directives ??= materializeTable(this.table);
    return this.directives;
  }

  private pathOf(url: string): string {
    const path = canonicalPath(typeof url === 'string' ? url : String(url));
    return this.flags & DECODE_ESCAPES ? decodeUnreserved(path) : path;
  }

  private compiled(userAgent: string): CompiledAgent {
    if (userAgent === this.lastToken && this.lastAgent !== undefined) return this.lastAgent;
    const token = typeof userAgent === 'string' ? userAgent : '';
    let compiled = this.agents?.get(token.toLowerCase());
    if (compiled === undefined) {
      compiled = compileAgent(this.table, token, { decodeUnreservedEscapes: (this.flags & DECODE_ESCAPES) !== 0 });
      if (this.lastAgent !== undefined) {
        this.agents ??= new Map();
        if (this.agents.size >= MAX_CACHED_AGENTS) this.agents.clear();
        this.agents.set(token.toLowerCase(), compiled);
        if (this.lastToken !== undefined) this.agents.set(this.lastToken.toLowerCase(), this.lastAgent);
      }
    }
    this.lastToken = token;
    this.lastAgent = compiled;
    return compiled;
  }
}

function ruleAtLine(groups: readonly Group[], line: number): Rule | undefined {
  for (const group of groups) {
    for (const rule of group.rules) if (rule.line === line) return rule;
  }
  return undefined;
}

const DECODE_ESCAPES = 1;
const ROBOTS_TXT_ALLOWED = 2;

/**
 * Parses a robots.txt body. A `Uint8Array` is read as the exact bytes it holds; a string is UTF-8
 * encoded first. Never throws for any body; throws {@link InvalidParseOptionsError} for bad options.
 */
export function parseRobotsTxt(input: string | Uint8Array, options?: ParseOptions): RobotsTxt {
  return new RobotsTxt(input, options);
}
