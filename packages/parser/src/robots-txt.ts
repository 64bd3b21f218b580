/**
 * `RobotsTxt`: a parsed robots.txt file. Parsing keeps the groups; the rule set of each user-agent
 * is compiled the second time that agent asks (its first check walks the rules), and cached on the object.
 */
import { compileAgent, materializeGroups, materializeTable, ruleOf, sitemapsOf, type CompiledAgent, type Directives } from './compile.js';
import { OBJECT, SLOT, STRING, stringsBytes, typedArrayBytes } from './match/held-bytes.js';
import { decodeUnreserved } from './escape.js';
import { buildTable, LINE_SHIFT, MAX_BODY_BYTES, readRow, rowHead, type DirectiveTable } from './table.js';
import { defineOptions, option, type OptionsInput } from './options/index.js';
import { DEFAULT_MAX_BYTES, prepareBody } from './tokenize.js';
import type { RuleVerdict, Explanation, Group, OtherDirective, Rule } from './types.js';
import type { ProductTokens } from './user-agent.js';
import { canonicalPath } from './url.js';
import { UsageRules } from './usage/rules.js';
import { RuleMatcher } from './match.js';
import { isPacked, packedDecidingLine, packedReading } from './match/packed.js';
import { InvalidOptionsError } from './errors.js';
import { FIRST_CHECK_MAX_RULES, firstCheck } from './match/first-check.js';
import type { UsageVerdict } from './usage/verdict.js';

/** Compiled agents kept per file: crawlers use one or a few; a bound keeps hostile callers in check. */
const MAX_CACHED_AGENTS = 64;
/** `lastToken` after a list that may change: no argument is identical to it. */
const NOT_STABLE: unique symbol = Symbol('not stable');

/** The options of {@link parseRobotsTxt}. Every default is Google's reading. */
export const PARSE_OPTIONS = defineOptions(
  'parseRobotsTxt()',
  {
    /**
     * Bytes of the body that are read; the rest is ignored, as Google and RFC 9309 (which asks for
     * at least 500 KiB) allow. At most 8 MiB: line numbers and row indices are packed into integers.
     * @default `512_000` (500 KiB)
     */
    maxBytes: option.number({ default: DEFAULT_MAX_BYTES, min: 0, max: MAX_BODY_BYTES, unit: 'bytes' }),
    /**
     * RFC 9309 §2.2.2: decode `%XX` escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) in both
     * the pattern and the URL before comparing, so `/%41` and `/A` are the same path.
     * Google compares the escapes as written.
     * @default `false`
     */
    decodeUnreservedEscapes: option.boolean({ default: false }),
    /**
     * RFC 9309 §2.2.3: `/robots.txt` is always allowed. Google has no such rule.
     * @default `false`
     */
    implicitRobotsTxtAllow: option.boolean({ default: false }),
    /**
     * Accept the key typos Google accepts (`useragent`, `user agent`, `dissallow`, `dissalow`,
     * `disalow`, `diasllow`, `disallaw`, `site-map`) and keys that merely start with a known key.
     * RFC 9309 names only the exact keys.
     * @default `true`
     */
    acceptTypos: option.boolean({ default: true }),
    /**
     * Accept white space instead of the `:` between key and value, as Google does.
     * @default `true`
     */
    acceptMissingColon: option.boolean({ default: true }),
  },
  { example: '{ implicitRobotsTxtAllow: true }' },
);

/** Options of {@link parseRobotsTxt}. Every default is Google's reading. */
export type ParseOptions = OptionsInput<typeof PARSE_OPTIONS>;

/** A parsed robots.txt file. Create it with {@link parseRobotsTxt}. */
export class RobotsTxt {
  /** Size of the body in bytes (before the `maxBytes` cut). */
  readonly byteLength: number;
  /** The body was longer than `maxBytes`; its tail was ignored. */
  readonly truncated: boolean;

  private readonly table: DirectiveTable;
  private readonly flags: number;
  private directives: Directives | undefined;
  // Most crawlers ask for one agent: it gets a field; more agents share a small map. `lastToken` is
  // the token or frozen list last asked for, compared by identity; NOT_STABLE after a mutable list.
  private lastToken: ProductTokens | typeof NOT_STABLE = NOT_STABLE;
  private lastKey: string | undefined;
  private lastAgent: CompiledAgent | undefined;
  private agents: Map<string, CompiledAgent> | undefined;
  /** The `sitemap:` values, when they were asked for before the file's objects were built. */
  private sitemapList: readonly string[] | undefined;
  /** What this file holds so far, counted as each structure is built (see {@link heldBytes}). */
  private held: number;

  constructor(input: string | Uint8Array, options?: ParseOptions) {
    const checked = PARSE_OPTIONS.resolve(options);
    const safeInput = typeof input === 'string' || input instanceof Uint8Array ? input : String(input ?? '');
    const prepared = prepareBody(safeInput, checked.maxBytes);
    this.table = buildTable(prepared, { acceptTypos: checked.acceptTypos, acceptMissingColon: checked.acceptMissingColon });
    this.byteLength = prepared.byteLength;
    this.truncated = prepared.truncated;
    this.flags = (checked.decodeUnreservedEscapes ? DECODE_ESCAPES : 0) | (checked.implicitRobotsTxtAllow ? ROBOTS_TXT_ALLOWED : 0);
    // This object and its table (one byte a character: the text is a byte string).
    this.held = 2 * OBJECT + 10 * SLOT + STRING + this.table.text.length + typedArrayBytes(this.table.rows);
  }

  /**
   * The bytes of heap this parsed file holds now, for a cache that bounds its memory in bytes: its
   * directive table, then what checks build as they need it (the rules compiled for each token
   * asked about, each verdict {@link decide} hands out, the groups {@link explain} shows, the
   * objects of {@link groups}). Counted from the sizes of what each is made of, as it is built, and
   * never below the heap they take on the shapes measured (from typical files to hostile 500 KiB
   * ones): a cache can read it after each check and count the file again when it grew.
   */
  get heldBytes(): number {
    // A tenth more for what the count does not see: V8's slack in what it allocates.
    return Math.ceil(this.held * 1.1);
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
    if (this.directives !== undefined) return this.directives.sitemaps;
    // Read from the table alone: a crawler asks every file for its sitemaps, and the objects of
    // every other line would stay with the file.
    if (this.sitemapList === undefined) {
      this.sitemapList = sitemapsOf(this.table);
      this.held += stringsBytes(this.sitemapList);
    }
    return this.sitemapList;
  }

  /** Every other `key: value` line (`host`, `clean-param`, `crawl-delay`, ...), in file order. */
  get others(): readonly OtherDirective[] {
    return this.objects().others;
  }

  /**
   * Whether `url` may be fetched for `productToken`, a product token (`"HeedBot"`) compared
   * case-insensitively with the leading `[A-Za-z_-]` run of each `user-agent:` value, exactly as
   * Google does: pass `productToken(header)`, not a whole header. A list of tokens
   * (`['HeedBot-News', 'HeedBot']`) reads as google/robotstxt's `AllowedByRobots()` with several
   * user agents: the groups of every listed token that is named apply together, and the `*` groups
   * only when none is. Any string is accepted as URL (see {@link canonicalPath}).
   */
  isAllowed(url: string, productToken: ProductTokens): boolean {
    const path = this.pathOf(url);
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return true;
    return this.matcherOf(this.compiled(productToken)).allows(path);
  }

  /**
   * The verdict for `url` and the line that decided it, without the groups and rule objects of
   * {@link explain} (the check a crawler makes for every URL; ask `explain()` for the rest when a
   * URL is skipped). The answers are frozen objects, one per deciding rule, shared from the
   * agent's second check on: a check then allocates nothing. (The first check of an agent walks
   * its rules instead of compiling them, since a broad crawl checks many files once, and builds
   * its answer.) `productToken` as for {@link isAllowed}.
   */
  decide(url: string, productToken: ProductTokens): RuleVerdict {
    const path = this.pathOf(url);
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return IMPLICIT_ALLOW;
    const compiled = this.compiled(productToken);
    const walked = this.rowsToWalk(compiled);
    if (walked !== undefined) {
      const winner = firstCheck(this.table, walked, compiled.decodeUnreservedEscapes, path);
      if (winner === undefined) return noRuleVerdict(compiled);
      return Object.freeze({ allowed: winner.allowed, reason: 'rule', line: winner.line });
    }
    const matcher = this.matcherOf(compiled);
    const winner = matcher.decidingPosition(path);
    const at = winner === -1 ? matcher.size : winner;
    let verdicts = compiled.verdicts;
    if (verdicts === undefined) {
      verdicts = compiled.verdicts = new Array<RuleVerdict | undefined>(matcher.size + 1);
      this.held += OBJECT + SLOT * (matcher.size + 1);
    }
    const known = verdicts[at];
    if (known !== undefined) return known;
    this.held += OBJECT;
    return (verdicts[at] = verdictAt(compiled, matcher, winner));
  }

  /**
   * {@link decide} in one number: the line of the rule that decides for `url`, negated when that
   * rule disallows; 0 when no rule decides (the URL is allowed). For a caller that builds verdicts
   * of its own (the manager): no answer object is read or kept, and the line comes with the
   * compiled rule itself, so a warm check of a file reads its compiled rules and nothing else.
   * `productToken` as for {@link isAllowed}.
   */
  decidingLine(url: string, productToken: ProductTokens): number {
    const path = this.pathOf(url);
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return 0;
    const compiled = this.compiled(productToken);
    const walked = this.rowsToWalk(compiled);
    if (walked !== undefined) {
      const winner = firstCheck(this.table, walked, compiled.decodeUnreservedEscapes, path);
      if (winner === undefined) return 0;
      return winner.allowed ? winner.line : -winner.line;
    }
    return this.matcherOf(compiled).decidingLine(path);
  }

  /**
   * The compiled rules of `productToken` (a token or a list, as for {@link isAllowed}) as one
   * string, for a caller that keeps many files and answers a warm check from that string alone with
   * {@link decidingLineOfPacked} (two memory loads, where the parsed file takes about ten).
   * `undefined` until the rules are compiled, which the agent's second check does (its first walks
   * them), and for rule sets too large to be packed (more than 32 rules): ask
   * {@link decidingLine} then. It compiles nothing itself, and it is the very string the compiled
   * rules are matched with: no copy is made per call.
   */
  packedRules(productToken: ProductTokens): string | undefined {
    return this.compiledSoFar(productToken)?.matcher?.packed;
  }

  /**
   * The verdict for `url` with the rule, line and groups that decided it. For a file with
   * `Content-Usage` or `Content-Signal` lines it carries the usage verdict too (`usage`, worked out
   * when first read); for other files that costs nothing.
   */
  explain(url: string, productToken: ProductTokens): Explanation {
    const asked = askedTokens(productToken);
    const path = this.pathOf(url);
    const compiled = this.compiled(productToken);
    const groups = this.appliedGroups(productToken, compiled);
    const explanation = this.explainPath(path, asked, groups, compiled);
    if (!this.table.hasUsage) return explanation;
    // Files with usage lines get `usage`, worked out when first read: a caller (or the linter) that
    // only wants the crawl verdict does not pay for it. It is an ordinary enumerable field to JSON.
    let usage: UsageVerdict | undefined;
    return Object.defineProperty(explanation, 'usage', {
      enumerable: true,
      get: () => (usage ??= this.usageOf(path, explanation.allowed, compiled, asked)),
    });
  }

  private explainPath(path: string, asked: ProductTokens, groups: readonly Group[], compiled: CompiledAgent): Explanation {
    const base = { productToken: asked, path, groups, matchedBy: compiled.matchedBy };
    if (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt')
      return { ...base, allowed: true, reason: 'robots-txt-implicit-allow', line: 0 };
    const winner = this.matcherOf(compiled).match(path);
    if (winner === undefined)
      return { ...base, allowed: true, reason: compiled.matchedBy === 'none' ? 'no-group' : 'no-matching-rule', line: 0 };
    // The deciding rule is the very object of the group that holds it.
    const rule = ruleAtLine(groups, winner.line);
    if (rule === undefined) return { ...base, allowed: winner.allowed, reason: 'rule', line: winner.line };
    return { ...base, allowed: winner.allowed, reason: 'rule', line: winner.line, rule };
  }

  /**
   * The AI-usage preferences that apply to `url` for `productToken` (one product token or a list, as
   * for {@link isAllowed}): per category (`train-ai`, `search`, `ai-input`, ...) `allow`, `disallow`
   * or `unknown`, with the `Content-Usage` or `Content-Signal` line that decided. The usage lines are
   * grouped as draft-ietf-aipref-attach reads robots.txt (a usage line ends a user-agent list; the
   * crawl verdicts keep Google's groups, where it does not), and the groups chosen as for
   * Allow/Disallow. A URL that may not be crawled has no usage preference (every category
   * `unknown`, reason `crawl-disallowed`). See docs/reference.md, "AI-usage preferences".
   */
  usage(url: string, productToken: ProductTokens): UsageVerdict {
    const path = this.pathOf(url);
    const compiled = this.compiled(productToken);
    const crawlAllowed = (this.flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') || this.matcherOf(compiled).allows(path);
    return this.usageOf(path, crawlAllowed, compiled, askedTokens(productToken));
  }

  /** The crawl-delay in seconds of the groups that apply to `productToken` (a token or a list), if one is set. */
  crawlDelay(productToken: ProductTokens): number | undefined {
    return this.compiled(productToken).crawlDelay;
  }

  /**
   * The `allow` or `disallow` rule on `line` (1-based, as verdicts give it), read from the parsed
   * file without building its groups: what a report of a verdict needs (the pattern as written and
   * as matched) at the cost of one rule object, where {@link explain} builds an object for every
   * line of the file once. `undefined` when the line holds no rule.
   */
  ruleAt(line: number): Rule | undefined {
    const { rows, count } = this.table;
    // Rows are in file order, one directive a line: a binary search by line.
    let low = 0;
    let high = count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = rowHead(rows, middle) >>> LINE_SHIFT;
      if (at < line) low = middle + 1;
      else if (at > line) high = middle - 1;
      else {
        const row = readRow(this.table, middle);
        return row.directive === 'allow' || row.directive === 'disallow' ? ruleOf(row.directive, row.line, row.raw) : undefined;
      }
    }
    return undefined;
  }

  /** The groups that apply to `productToken` (merged groups naming it or any listed token, else the `*` groups). */
  groupsFor(productToken: ProductTokens): readonly Group[] {
    return this.appliedGroups(productToken, this.compiled(productToken));
  }

  private usageOf(path: string, crawlAllowed: boolean, compiled: CompiledAgent, asked: ProductTokens): UsageVerdict {
    if (compiled.usage === undefined) {
      compiled.usage = UsageRules.compile(this.table, compiled.usageRows, (this.flags & DECODE_ESCAPES) !== 0);
      this.held += compiled.usage.heldBytes();
    }
    return compiled.usage.verdict(path, crawlAllowed, asked);
  }

  /** The groups that apply, selected once per compiled agent (explain() runs per check). */
  private appliedGroups(productToken: ProductTokens, compiled: CompiledAgent): readonly Group[] {
    // The groups the compiled rules came from: one selection decides both.
    const indices = compiled.groupIndices;
    if (compiled.groups !== undefined) return compiled.groups;
    const list = typeof indices === 'number' ? [indices] : indices;
    // The file's groups when they are built already (`groups` was read); else these groups alone, so
    // that a parsed file kept in a cache does not grow by an object for every line it holds.
    if (this.directives === undefined) {
      compiled.groups = materializeGroups(this.table, list);
      this.held += groupsBytes(compiled.groups);
    } else compiled.groups = list.map((index) => this.groups[index] as Group);
    this.held += OBJECT + SLOT * list.length;
    return compiled.groups;
  }

  private objects(): Directives {
    if (this.directives === undefined) {
      const directives = materializeTable(this.table);
      this.directives = directives;
      this.held += groupsBytes(directives.groups) + stringsBytes(directives.sitemaps) + OBJECT + SLOT * directives.others.length;
      for (const other of directives.others) this.held += OBJECT + 2 * STRING + 2 * (other.key.length + other.value.length);
    }
    return this.directives;
  }

  /**
   * The rule rows of `compiled` when this check is its first and walks them instead of compiling
   * them (match/first-check.ts), marking it walked; `undefined` when the check compiles.
   */
  private rowsToWalk(compiled: CompiledAgent): readonly number[] | undefined {
    const rows = compiled.ruleRows;
    if (compiled.matcher !== undefined || compiled.walked === true || rows === undefined || rows.length > FIRST_CHECK_MAX_RULES)
      return undefined;
    compiled.walked = true;
    return rows;
  }

  /** The compiled rules of `compiled`, built the first time a check needs them (see {@link decide}). */
  private matcherOf(compiled: CompiledAgent): RuleMatcher {
    if (compiled.matcher !== undefined) return compiled.matcher;
    const rows = compiled.ruleRows ?? [];
    const matcher = RuleMatcher.fromTable(this.table, rows, compiled.decodeUnreservedEscapes, 'precedence', this.flags);
    compiled.matcher = matcher;
    // The rows are let go once compiled: the matcher's bytes are counted in their place.
    compiled.ruleRows = undefined;
    this.held += matcher.heldBytes(this.table.text) - ruleRowsBytes(rows);
    return matcher;
  }

  private pathOf(url: string): string {
    return pathRead(url, this.flags);
  }

  /** The agent already compiled for `productToken`, found as {@link compiled} finds it, or `undefined`: nothing is built. */
  private compiledSoFar(productToken: ProductTokens): CompiledAgent | undefined {
    if (productToken === this.lastToken && this.lastAgent !== undefined) return this.lastAgent;
    const key = tokenList(productToken)
      .map((token) => token.toLowerCase())
      .join('\n');
    const lastKey = this.lastKey ?? (typeof this.lastToken === 'string' ? this.lastToken.toLowerCase() : undefined);
    if (key === lastKey && this.lastAgent !== undefined) return this.lastAgent;
    return this.agents?.get(key);
  }

  private compiled(productToken: ProductTokens): CompiledAgent {
    // The hot path: the same token string, or the same frozen list (the manager's), as last time.
    if (productToken === this.lastToken && this.lastAgent !== undefined) return this.lastAgent;
    if (typeof productToken === 'string') return this.remember(productToken, productToken.toLowerCase(), undefined, [productToken]);
    // Any other list is compared by its contents: the caller may reuse and change one array. A
    // frozen one cannot change, so it is then known by identity and its key is not built again,
    // and a crawler asking with one frozen list (the manager's) costs what one token does.
    const stable = Array.isArray(productToken) && Object.isFrozen(productToken) ? productToken : NOT_STABLE;
    const tokens = tokenList(productToken);
    const key = tokens.map((token) => token.toLowerCase()).join('\n');
    if (key === this.lastKey && this.lastAgent !== undefined) {
      this.lastToken = stable;
      return this.lastAgent;
    }
    return this.remember(stable, key, key, tokens);
  }

  /**
   * Compiles (or finds) the agent for `key` and makes it the last one asked for. Most crawlers ask
   * for one agent: it gets a field; more agents share a small map. For a single token the key is
   * not kept (it is the token in lower case, rebuilt when the agent moves to the map).
   */
  private remember(
    identity: ProductTokens | typeof NOT_STABLE,
    key: string,
    listKey: string | undefined,
    tokens: readonly string[],
  ): CompiledAgent {
    let compiled = this.agents?.get(key);
    if (compiled === undefined) {
      compiled = compileAgent(this.table, tokens, { decodeUnreservedEscapes: (this.flags & DECODE_ESCAPES) !== 0 });
      this.held += agentBytes(compiled);
      if (this.lastAgent !== undefined) {
        this.agents ??= new Map();
        if (this.agents.size >= MAX_CACHED_AGENTS) this.agents.clear();
        this.agents.set(key, compiled);
        const lastKey = this.lastKey ?? (typeof this.lastToken === 'string' ? this.lastToken.toLowerCase() : undefined);
        if (lastKey !== undefined) this.agents.set(lastKey, this.lastAgent);
      }
    }
    this.lastToken = identity;
    this.lastKey = listKey;
    this.lastAgent = compiled;
    return compiled;
  }
}

/** Most lists a crawler passes are short; a hostile caller's are cut here. */
const MAX_TOKENS = 16;

/** The product tokens of a `productToken` argument: never empty (`['']` matches only `*` groups). */
function tokenList(productToken: ProductTokens): readonly string[] {
  if (typeof productToken === 'string') return [productToken];
  if (!Array.isArray(productToken)) return [''];
  const tokens = (productToken as readonly unknown[]).filter((token): token is string => typeof token === 'string').slice(0, MAX_TOKENS);
  return tokens.length === 0 ? [''] : tokens;
}

/** What a verdict says it is for: the token, or a frozen copy of the list as read (the caller's array may change). */
function askedTokens(productToken: ProductTokens): ProductTokens {
  return typeof productToken === 'string' ? productToken : Object.freeze(tokenList(productToken));
}

const IMPLICIT_ALLOW: RuleVerdict = Object.freeze({ allowed: true, reason: 'robots-txt-implicit-allow', line: 0 });

/** The verdict when the rule at position `winner` decides (-1: none matched), as `explainPath` words it. */
function verdictAt(compiled: CompiledAgent, matcher: RuleMatcher, winner: number): RuleVerdict {
  if (winner === -1) return noRuleVerdict(compiled);
  return Object.freeze({ allowed: matcher.allowsAt(winner), reason: 'rule', line: matcher.lineAt(winner) });
}

/** The bytes of a compiled agent's rule rows, held until its matcher is built from them. */
function ruleRowsBytes(rows: readonly number[]): number {
  return OBJECT + SLOT * rows.length;
}

/** The verdict when no rule matches: no group applies, or none of its rules matched. */
function noRuleVerdict(compiled: CompiledAgent): RuleVerdict {
  return Object.freeze({ allowed: true, reason: compiled.matchedBy === 'none' ? 'no-group' : 'no-matching-rule', line: 0 });
}

/**
 * The bytes a compiled agent holds: its rule rows (its matcher is counted once built), its group
 * indices and usage rows, and the agents map's slot.
 */
function agentBytes(compiled: CompiledAgent): number {
  const indices = compiled.groupIndices;
  return (
    2 * OBJECT +
    12 * SLOT +
    ruleRowsBytes(compiled.ruleRows ?? []) +
    SLOT * compiled.usageRows.length +
    (typeof indices === 'number' ? 0 : OBJECT + SLOT * indices.length)
  );
}

/**
 * The bytes of group objects: each group, its agent and rule arrays (pushed to: room for 17 slots
 * at first), its agent lines (value and token) and rules (the pattern as written, UTF-16 when it is
 * not ASCII, and as matched, a string of its own when it differs).
 */
function groupsBytes(groups: readonly Group[]): number {
  let bytes = OBJECT + SLOT * groups.length;
  for (const group of groups) {
    bytes += 3 * OBJECT + 2 * SLOT * Math.max(17, group.agents.length, group.rules.length);
    for (const agent of group.agents) bytes += OBJECT + SLOT + 2 * STRING + 2 * (agent.value.length + agent.token.length);
    for (const rule of group.rules) {
      bytes += OBJECT + SLOT + STRING + 2 * rule.pattern.length;
      if (rule.normalizedPattern !== rule.pattern) bytes += STRING + rule.normalizedPattern.length;
    }
  }
  return bytes;
}

function ruleAtLine(groups: readonly Group[], line: number): Rule | undefined {
  for (const group of groups) {
    for (const rule of group.rules) if (rule.line === line) return rule;
  }
  return undefined;
}

/** Reading flags of a file (the RFC 9309 options), kept with its packed rules (match/packed.ts). */
const DECODE_ESCAPES = 1;
const ROBOTS_TXT_ALLOWED = 2;

/** The path of `url` as a file read with `flags` matches it: canonical, its unreserved escapes decoded with DECODE_ESCAPES. */
function pathRead(url: string, flags: number): string {
  const path = canonicalPath(typeof url === 'string' ? url : String(url));
  return flags & DECODE_ESCAPES ? decodeUnreserved(path) : path;
}

/**
 * {@link RobotsTxt#decidingLine} from the string {@link RobotsTxt#packedRules} gave: the line of
 * the rule that decides for `url`, negated when that rule disallows, 0 when no rule decides (the
 * URL is allowed). It equals `robots.decidingLine(url, productToken)` of the file and token the
 * string came from, always: the URL is read as that file reads it (its canonical path, unreserved
 * escapes decoded and `/robots.txt` always allowed when the file was parsed with those options).
 * Any URL string is accepted, as by the file's checks. Throws {@link InvalidOptionsError} when
 * `packed` is not a packed rule set of this version of `@heed/parser`.
 */
export function decidingLineOfPacked(packed: string, url: string): number {
  if (!isPacked(packed))
    throw new InvalidOptionsError(
      'packed',
      'expected the string robots.packedRules(productToken) returned (from this version of @heed/parser), not ' +
        (typeof packed === 'string' ? 'another string' : typeof packed) +
        '; keep that string as returned, or check with robots.decidingLine(url, productToken)',
      'decidingLineOfPacked()',
    );
  const flags = packedReading(packed);
  const path = pathRead(url, flags);
  if (flags & ROBOTS_TXT_ALLOWED && path === '/robots.txt') return 0;
  return packedDecidingLine(packed, path);
}

/**
 * Parses a robots.txt body. A `Uint8Array` is read as the exact bytes it holds; a string is UTF-8
 * encoded first. Never throws for any body; throws {@link InvalidOptionsError} for bad options.
 */
export function parseRobotsTxt(input: string | Uint8Array, options?: ParseOptions): RobotsTxt {
  return new RobotsTxt(input, options);
}
