/**
 * From line records to groups, and from groups to the rule set of one user-agent.
 *
 * Grouping follows google/robotstxt's matcher: consecutive `user-agent` lines open a group, the
 * first `allow`/`disallow` after them closes the agent list, and a `user-agent` after a rule opens
 * the next group. `sitemap`, `crawl-delay`, other and usage lines do not end a group. Rules before
 * any `user-agent` belong to no group and are ignored. Usage lines have a grouping of their own, the
 * attach draft's (see {@link compileAgent}); it decides only which usage lines apply.
 */
import { escapeBytes } from './escape.js';
import { type RuleMatcher } from './match.js';
import { KIND, readRow, rowEnd, rowHead, rowStart, type DirectiveTable } from './table.js';
import { byteStringToText } from './bytes.js';
import type { TokenizedLine } from './tokenize.js';
import type { AgentLine, RuleVerdict, DirectiveKind, Group, OtherDirective, Rule } from './types.js';
import { agentLineToken, isGlobalAgent, isTokenChar } from './user-agent.js';
import type { UsageRules } from './usage/rules.js';

export interface Directives {
  readonly groups: readonly Group[];
  readonly sitemaps: readonly string[];
  readonly others: readonly OtherDirective[];
}

interface GroupDraft {
  index: number;
  line: number;
  agents: AgentLine[];
  rules: Rule[];
  crawlDelay?: number;
  closed: boolean;
}

const NEEDS_DECODING = /[%\x80-\xff]/;

/**
 * Builds groups, sitemaps and other directives from directive lines, in file order. With `wanted`,
 * the rules of the other groups are left out (their groups are still counted, so indices stay
 * those of the whole file).
 */
class DirectiveCollector {
  private readonly groups: GroupDraft[] = [];
  private readonly sitemaps: string[] = [];
  private readonly others: OtherDirective[] = [];
  private current: GroupDraft | undefined;

  constructor(private readonly wanted?: ReadonlySet<number>) {}

  /** `key` is only read for crawl-delay and other keys, so it is passed as a thunk. */
  add(directive: DirectiveKind, line: number, valueBytes: string, key: () => string): void {
    switch (directive) {
      case 'user-agent': {
        let current = this.current;
        if (current === undefined || current.closed) {
          current = { index: this.groups.length, line, agents: [], rules: [], closed: false };
          this.current = current;
          this.groups.push(current);
        }
        current.agents.push({ value: byteStringToText(valueBytes), token: agentLineToken(valueBytes), line });
        return;
      }
      case 'allow':
      case 'disallow': {
        const current = this.current;
        if (current === undefined) return;
        current.closed = true;
        if (this.wanted === undefined || this.wanted.has(current.index)) current.rules.push(ruleOf(directive, line, valueBytes));
        return;
      }
      case 'sitemap':
        if (valueBytes.length > 0) this.sitemaps.push(byteStringToText(valueBytes));
        return;
      case 'crawl-delay': {
        const value = byteStringToText(valueBytes);
        const delay = parseCrawlDelay(value);
        const current = this.current;
        if (current !== undefined && current.crawlDelay === undefined && delay !== undefined) current.crawlDelay = delay;
        this.others.push({ key: key(), value, line });
        return;
      }
      default:
        // Other keys, and the usage lines (kept here too, as crawl-delay is; `RobotsTxt#usage` reads them).
        this.others.push({ key: key(), value: byteStringToText(valueBytes), line });
    }
  }

  result(): Directives {
    return { groups: this.groups.map(freezeGroup), sitemaps: this.sitemaps, others: this.others };
  }
}

/** The rule of an `allow` or `disallow` line whose pattern, as written, is the byte string `valueBytes`. */
export function ruleOf(directive: 'allow' | 'disallow', line: number, valueBytes: string): Rule {
  const plain = !NEEDS_DECODING.test(valueBytes);
  const pattern = plain ? valueBytes : byteStringToText(valueBytes);
  const normalizedPattern = plain ? valueBytes : escapeBytes(valueBytes);
  return { directive, pattern, normalizedPattern, line };
}

/** Builds groups, sitemaps and other directives from the tokenizer's records. */
export function collectDirectives(lines: readonly TokenizedLine[]): Directives {
  const collector = new DirectiveCollector();
  for (const record of lines) {
    if (record.kind !== 'directive' || record.directive === undefined) continue;
    collector.add(record.directive, record.line, record.valueBytes ?? '', () => record.key ?? '');
  }
  return collector.result();
}

/** The object view of a directive table: groups, sitemaps and other lines. */
export function materializeTable(table: DirectiveTable): Directives {
  const collector = new DirectiveCollector();
  for (let i = 0; i < table.count; i++) {
    const row = readRow(table, i);
    if (
      row.directive === 'crawl-delay' ||
      row.directive === 'other' ||
      row.directive === 'content-usage' ||
      row.directive === 'content-signal'
    ) {
      collector.add(row.directive, row.line, row.value, () => byteStringToText(row.raw));
    } else if (row.directive === 'allow' || row.directive === 'disallow') collector.add(row.directive, row.line, row.raw, () => '');
    else collector.add(row.directive, row.line, row.value, () => '');
  }
  return collector.result();
}

/**
 * The groups at `indices` (as `Group#index`) as objects, in file order, built from the table
 * without objects for the file's other lines: what `explain()` shows of a file whose other groups
 * nobody asked for.
 */
export function materializeGroups(table: DirectiveTable, indices: readonly number[]): Group[] {
  const wanted = new Set(indices);
  const collector = new DirectiveCollector(wanted);
  for (let i = 0; i < table.count; i++) {
    const kind = rowHead(table.rows, i) & 7;
    // Only the lines that make or fill a group: its agents, its rules and its crawl-delay.
    if (kind !== KIND['user-agent'] && kind !== KIND.allow && kind !== KIND.disallow && kind !== KIND['crawl-delay']) continue;
    const row = readRow(table, i);
    if (row.directive === 'allow' || row.directive === 'disallow') collector.add(row.directive, row.line, row.raw, () => '');
    else collector.add(row.directive, row.line, row.value, () => '');
  }
  return collector.result().groups.filter((group) => wanted.has(group.index));
}

/** The non-empty `sitemap:` values of the table, in file order, as {@link materializeTable} reads them. */
export function sitemapsOf(table: DirectiveTable): string[] {
  const sitemaps: string[] = [];
  for (let i = 0; i < table.count; i++) {
    if ((rowHead(table.rows, i) & 7) !== KIND.sitemap) continue;
    const value = table.text.slice(rowStart(table.text, table.rows, i), rowEnd(table.rows, i));
    if (value.length > 0) sitemaps.push(byteStringToText(value));
  }
  return sitemaps;
}

function freezeGroup(draft: GroupDraft): Group {
  const group = { index: draft.index, line: draft.line, agents: draft.agents, rules: draft.rules };
  return draft.crawlDelay === undefined ? group : { ...group, crawlDelay: draft.crawlDelay };
}

/** A crawl-delay in seconds: a non-negative finite number, else undefined. */
export function parseCrawlDelay(value: string): number | undefined {
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** The groups that apply to a product token, and why. */
export interface AppliedGroups {
  readonly groups: readonly Group[];
  readonly matchedBy: 'product-token' | 'wildcard' | 'none';
}

/**
 * The groups for one or several product tokens: every group that names any of them (merged), or,
 * when none does, every `*` group. A group naming the agent makes the `*` groups irrelevant even if
 * it has no rules. Several tokens read as google/robotstxt's `AllowedByRobots()` with a vector of
 * user agents: the groups of every token that is named apply together.
 */
export function selectGroups(groups: readonly Group[], tokens: string | readonly string[]): AppliedGroups {
  const wanted = new Set(
    (typeof tokens === 'string' ? [tokens] : tokens).filter((token) => token.length > 0).map((token) => token.toLowerCase()),
  );
  const named =
    wanted.size === 0
      ? []
      : groups.filter((group) => group.agents.some((agent) => agent.token !== '*' && wanted.has(agent.token.toLowerCase())));
  const global = groups.filter((group) => group.agents.some((agent) => agent.token === '*'));
  return { groups: chooseGroups(named, global), matchedBy: matchedBy(named.length > 0, global.length > 0) };
}

/**
 * The selection rule, for {@link selectGroups} (group objects) and {@link compileAgent} (table
 * rows) alike: the groups naming the agent, merged; else the `*` groups; else none.
 */
function chooseGroups<T>(named: readonly T[], global: readonly T[]): readonly T[] {
  return named.length > 0 ? named : global;
}

function matchedBy(anyNamed: boolean, anyGlobal: boolean): AppliedGroups['matchedBy'] {
  return anyNamed ? 'product-token' : anyGlobal ? 'wildcard' : 'none';
}

export interface CompileOptions {
  readonly decodeUnreservedEscapes: boolean;
}

/** The compiled rule set of one product token (or one list of tokens). */
export interface CompiledAgent {
  /**
   * The rules compiled, built by the agent's second check (`matcherOf()` in robots-txt.ts): its
   * first is answered by walking {@link ruleRows} (match/first-check.ts), unless there are many.
   */
  matcher: RuleMatcher | undefined;
  /** The rows of the rules that apply, in file order, until {@link matcher} is built from them. */
  ruleRows: readonly number[] | undefined;
  /** Whether the patterns are read with their unreserved escapes decoded (RFC 9309). */
  readonly decodeUnreservedEscapes: boolean;
  /** Whether a check was answered without the matcher already: the next one builds it. */
  walked: boolean;
  readonly matchedBy: AppliedGroups['matchedBy'];
  /**
   * Indices of the groups that apply (as `Group#index`), chosen in the same walk as the rules: one
   * number for the usual single group, else an array. It lives as long as the file, so it is kept
   * small: an array pushed to holds room for 17 numbers, ~190 B of a 2 KB file's ~3 KB.
   */
  readonly groupIndices: number | readonly number[];
  /**
   * Rows of the `content-usage` and `content-signal` lines that apply: those of the chosen usage
   * groups (the attach draft's grouping), then the `content-signal` lines before any group. Empty for a file without such lines.
   */
  readonly usageRows: readonly number[];
  /**
   * The verdicts `decide()` hands out, built the first time each is needed: per rule position of
   * the matcher, then one for "no rule matched" (at index `matcher.size`).
   */
  verdicts: (RuleVerdict | undefined)[] | undefined;
  /**
   * The crawl-delay of the groups that apply: the first valid `crawl-delay` line of the first of
   * them that has one, found in the same walk as the rules, so that a crawler asking for it builds
   * no group objects.
   */
  readonly crawlDelay: number | undefined;
  /** The groups as objects, selected the first time `explain()` or `groupsFor()` needs them. */
  groups?: readonly Group[];
  /** The usage rules compiled from `usageRows`, the first time `usage()` needs them. */
  usage?: UsageRules;
}

const NO_ROWS: readonly number[] = [];

/**
 * Where the usage lines of one compiled agent go. Usage lines are grouped as draft-ietf-aipref-attach
 * reads robots.txt, which makes `content-usage` one of RFC 9309's rules: a usage line ends the
 * user-agent list as Allow/Disallow do, and belongs to the group it is in. Content-Signal lines are
 * grouped the same way. Only the crawl groups stay Google's.
 */
interface UsageGrouping {
  /** A usage group has started (a user-agent line was seen). */
  open: boolean;
  /** Its agent list has ended (a rule or usage line was seen): the next user-agent opens another. */
  closed: boolean;
  /** The current usage group names a token / is a `*` group. */
  specific: boolean;
  global: boolean;
  readonly specificRows: number[];
  readonly globalRows: number[];
  /** Content-Signal lines before any group: they speak for every group. */
  readonly preamble: number[];
}

/**
 * Compiles the rules that apply to `tokens` straight from the directive table, with the grouping
 * described at the top of this module: every group naming one of the tokens (merged), else every
 * `*` group. The usage lines are grouped in the same walk, the attach draft's way
 * ({@link UsageGrouping}); the same selection rule then picks their groups.
 */
export function compileAgent(table: DirectiveTable, tokens: readonly string[], options: CompileOptions): CompiledAgent {
  const { rows, text } = table;
  const specific: number[] = [];
  const global: number[] = [];
  let anySpecific = false;
  let anyGlobal = false;
  let open = false; // a group has started
  let closed = true; // its agent list has ended (a rule was seen)
  let groupSpecific = false;
  let groupGlobal = false;
  let group = -1; // the current group's index, counted as materializeTable counts groups
  const specificGroups: number[] = [];
  const globalGroups: number[] = [];
  // The first valid crawl-delay of each group that has one (few do), by group index.
  let delays: Map<number, number> | undefined;
  // Only files with usage lines pay for their grouping.
  const usage: UsageGrouping | undefined = table.hasUsage
    ? { open: false, closed: true, specific: false, global: false, specificRows: [], globalRows: [], preamble: [] }
    : undefined;
  for (let i = 0; i < table.count; i++) {
    const head = rowHead(rows, i);
    const kind = head & 7;
    if (kind === KIND['user-agent']) {
      if (closed) {
        groupSpecific = groupGlobal = false;
        closed = false;
        open = true;
        group++;
      }
      if (usage !== undefined && usage.closed) {
        usage.specific = usage.global = false;
        usage.closed = false;
        usage.open = true;
      }
      const start = rowStart(text, rows, i);
      const end = rowEnd(rows, i);
      for (const token of tokens) {
        const match = agentMatches(text, start, end, token);
        if (match === 'no') continue;
        if (match === 'global') {
          if (usage !== undefined) usage.global = true;
          if (!groupGlobal) {
            groupGlobal = anyGlobal = true;
            globalGroups.push(group);
          }
        } else {
          if (usage !== undefined) usage.specific = true;
          if (!groupSpecific) {
            groupSpecific = anySpecific = true;
            specificGroups.push(group);
          }
        }
        break;
      }
    } else if (kind === KIND.allow || kind === KIND.disallow) {
      if (!open) continue;
      closed = true;
      if (usage !== undefined) usage.closed = true;
      if (groupSpecific) specific.push(i);
      else if (groupGlobal) global.push(i);
    } else if (kind === KIND['crawl-delay']) {
      // A crawl-delay line belongs to the group it is in, wherever in it (materializeTable's reading).
      if (group === -1 || delays?.has(group) === true) continue;
      const delay = parseCrawlDelay(byteStringToText(text.slice(rowStart(text, rows, i), rowEnd(rows, i))));
      if (delay !== undefined) (delays ??= new Map()).set(group, delay);
    } else if (usage !== undefined && kind >= KIND['content-usage']) {
      if (usage.open) {
        usage.closed = true;
        if (usage.specific) usage.specificRows.push(i);
        else if (usage.global) usage.globalRows.push(i);
      } else if (kind === KIND['content-signal']) usage.preamble.push(i);
      // A Content-Usage before any group belongs to none (RFC 9309 ignores rules outside groups).
    }
  }
  // Google compares the whole token: one with other characters ("Foo Bar") names no group.
  const chosen = anySpecific ? specific : global;
  const indices = chooseGroups(specificGroups, globalGroups);
  // The same user-agent lines name the token in both groupings, so `anySpecific` chooses for both.
  const usageRows = usage === undefined ? NO_ROWS : [...(anySpecific ? usage.specificRows : usage.globalRows), ...usage.preamble];
  let crawlDelay: number | undefined;
  for (const index of delays === undefined ? NO_ROWS : indices) {
    crawlDelay = delays?.get(index);
    if (crawlDelay !== undefined) break;
  }
  // The fields set by later checks are in the literal: the object then holds them itself, without
  // a separate property store (about 40 B per file a broad crawl holds).
  return {
    matcher: undefined,
    ruleRows: chosen,
    walked: false,
    verdicts: undefined,
    decodeUnreservedEscapes: options.decodeUnreservedEscapes,
    matchedBy: matchedBy(anySpecific, anyGlobal),
    crawlDelay,
    groupIndices: indices.length === 1 ? (indices[0] as number) : indices.length === 0 ? NO_ROWS : indices.slice(),
    usageRows,
  };
}

/**
 * Does the `user-agent:` value text[start, end) name `token`? Google: `*` (alone, or followed by
 * white space) is the global agent; otherwise the value's leading `[A-Za-z_-]` run must equal the
 * token, ignoring ASCII case.
 */
function agentMatches(text: string, start: number, end: number, token: string): 'global' | 'specific' | 'no' {
  if (start === end) return 'no';
  if (text.charCodeAt(start) === 0x2a) return isGlobalAgent(text, start, end) ? 'global' : 'no';
  const length = token.length;
  if (length === 0 || end - start < length || !isToken(token)) return 'no';
  for (let i = 0; i < length; i++) {
    if (lowerAscii(text.charCodeAt(start + i)) !== lowerAscii(token.charCodeAt(i))) return 'no';
  }
  if (start + length === end) return 'specific';
  // The token must be the whole leading run: the next byte must not continue it.
  return isTokenChar(text.charCodeAt(start + length)) ? 'no' : 'specific';
}

function isToken(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (!isTokenChar(token.charCodeAt(i))) return false;
  return true;
}

function lowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code | 0x20 : code;
}
