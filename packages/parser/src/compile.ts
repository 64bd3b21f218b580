/**
 * From line records to groups, and from groups to the rule set of one user-agent.
 *
 * Grouping follows google/robotstxt's matcher: consecutive `user-agent` lines open a group, the
 * first `allow`/`disallow` after them closes the agent list, and a `user-agent` after a rule opens
 * the next group. `sitemap`, `crawl-delay` and other lines do not end a group. Rules before any
 * `user-agent` belong to no group and are ignored.
 */
import { decodeUnreserved, escapeBytes } from './escape.js';
import { compilePattern, RuleMatcher, type CompiledRule } from './match.js';
import { byteStringToText } from './bytes.js';
import { classifyKeyAt, scanLines, type PreparedBody, type TokenizedLine } from './tokenize.js';
import type { AgentLine, DirectiveKind, Group, OtherDirective, Rule } from './types.js';
import { agentLineToken } from './user-agent.js';

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

/** Builds groups, sitemaps and other directives from directive lines, in file order. */
class DirectiveCollector {
  private readonly groups: GroupDraft[] = [];
  private readonly sitemaps: string[] = [];
  private readonly others: OtherDirective[] = [];
  private current: GroupDraft | undefined;

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
        const plain = !NEEDS_DECODING.test(valueBytes);
        const pattern = plain ? valueBytes : byteStringToText(valueBytes);
        const normalizedPattern = plain ? valueBytes : escapeBytes(valueBytes);
        current.rules.push({ directive, pattern, normalizedPattern, line });
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
        this.others.push({ key: key(), value: byteStringToText(valueBytes), line });
    }
  }

  result(): Directives {
    return { groups: this.groups.map(freezeGroup), sitemaps: this.sitemaps, others: this.others };
  }
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

/**
 * The same, straight from the scanner: parsing needs no line records, so it makes none (that is
 * most of what parsing a large file would otherwise allocate).
 */
export function collectDirectivesFromBody(prepared: PreparedBody, options: { acceptTypos: boolean; acceptMissingColon: boolean }): Directives {
  const collector = new DirectiveCollector();
  const { body } = prepared;
  scanLines(prepared, options.acceptMissingColon, (scan) => {
    if (scan.kind !== 'directive') return;
    const { keyStart, keyEnd } = scan;
    const { directive } = classifyKeyAt(body, keyStart, keyEnd, options.acceptTypos);
    collector.add(directive, scan.line, body.slice(scan.valueStart, scan.valueEnd), () => byteStringToText(body.slice(keyStart, keyEnd)));
  });
  return collector.result();
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
 * The groups for a product token: every group that names it (merged), or, when none does, every
 * `*` group. A group naming the agent makes the `*` groups irrelevant even if it has no rules.
 */
export function selectGroups(groups: readonly Group[], token: string): AppliedGroups {
  const lower = token.toLowerCase();
  const named = lower.length === 0 ? [] : groups.filter((group) => group.agents.some((agent) => agent.token !== '*' && agent.token.toLowerCase() === lower));
  if (named.length > 0) return { groups: named, matchedBy: 'product-token' };
  const global = groups.filter((group) => group.agents.some((agent) => agent.token === '*'));
  return global.length > 0 ? { groups: global, matchedBy: 'wildcard' } : { groups: [], matchedBy: 'none' };
}

export interface CompileOptions {
  readonly decodeUnreservedEscapes: boolean;
}

/** The compiled rule set of one product token. */
export interface AgentRules extends AppliedGroups {
  readonly matcher: RuleMatcher<Rule>;
}

/** Compiles the rules that apply to `token` into a matcher. */
export function compileAgent(groups: readonly Group[], token: string, options: CompileOptions): AgentRules {
  const applied = selectGroups(groups, token);
  const compiled: CompiledRule<Rule>[] = [];
  for (const group of applied.groups) {
    for (const rule of group.rules) {
      const pattern = options.decodeUnreservedEscapes ? decodeUnreserved(rule.normalizedPattern) : rule.normalizedPattern;
      const allow = rule.directive === 'allow';
      compiled.push(compilePattern(pattern, allow, rule.line, rule));
      const index = allow ? indexPageAlternative(pattern) : undefined;
      if (index !== undefined) compiled.push(compilePattern(index, true, rule.line, rule));
    }
  }
  return { ...applied, matcher: new RuleMatcher(compiled) };
}

/**
 * Google: `allow: /dir/index.htm[l]` also allows `/dir/` itself, as `allow: /dir/$` would. The
 * alternative is shorter than the pattern, so it only decides when the pattern itself does not match.
 */
function indexPageAlternative(pattern: string): string | undefined {
  const slash = pattern.lastIndexOf('/');
  if (slash === -1 || !pattern.startsWith('/index.htm', slash)) return undefined;
  return pattern.slice(0, slash + 1) + '$';
}
