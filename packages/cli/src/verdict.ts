/**
 * One verdict, for people and for machines: allowed or not, for which product token, and what
 * decided it — the rule's line quoted, the group it sits in, or the status of robots.txt itself.
 */
import { printable, type Group, type ProductTokens, type Rule, type RuleReason } from '@heed/parser';
import { quoteLine, type Style } from './output.js';

export interface VerdictView {
  readonly url: string;
  readonly allowed: boolean;
  /** The product token (or list of tokens) matched. */
  readonly productToken: ProductTokens;
  /** `rules` or, at the origin level, why no rule could decide (`unavailable`, `unreachable`, ...). */
  readonly reason: string;
  /** When rules decided: the parser's reason (`rule`, `no-matching-rule`, `no-group`). */
  readonly ruleReason?: RuleReason;
  readonly line?: number;
  readonly rule?: Rule;
  readonly groups?: readonly Group[];
  readonly matchedBy?: 'product-token' | 'wildcard' | 'none';
  /** A sentence on the robots.txt itself (its HTTP status, a stale copy...). */
  readonly note?: string;
}

/** How a verdict names the agent: the token, or the listed tokens joined by `, ` (as the parser's verdicts do). */
export function tokenLabel(productToken: ProductTokens): string {
  return typeof productToken === 'string' ? productToken : productToken.join(', ');
}

/** `the group naming X (line 5)` or `the \`User-agent: *\` group of line 1` with an aside on why. */
function describeGroups(view: VerdictView): { groups: string; aside: string } {
  const groups = view.groups ?? [];
  const label = tokenLabel(view.productToken);
  const lines = groups.map((group) => group.line);
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
  return view.matchedBy === 'wildcard'
    ? {
        groups: `the \`User-agent: *\` group${groups.length === 1 ? '' : 's'} of ${where}`,
        aside: ` (no group names ${label || 'an empty product token'})`,
      }
    : { groups: `the group${groups.length === 1 ? '' : 's'} naming ${label} (${where})`, aside: '' };
}

/** Why, in one sentence. */
export function explainWhy(view: VerdictView): string {
  if (view.reason !== 'rules' && view.reason !== 'stale-copy') return view.note ?? view.reason;
  const prefix = view.reason === 'stale-copy' ? `${view.note ?? 'robots.txt is unreachable; its last good copy decided.'} ` : '';
  const { groups, aside } = describeGroups(view);
  switch (view.ruleReason) {
    case 'rule':
      return `${prefix}Line ${view.line} decided, in ${groups}${aside}:`;
    case 'no-matching-rule':
      return `${prefix}No rule of ${groups} matches this URL, so it is allowed${aside}.`;
    case 'no-group':
      return `${prefix}No group names ${tokenLabel(view.productToken) || 'an empty product token'} and there is no \`User-agent: *\` group, so everything is allowed.`;
    case 'robots-txt-implicit-allow':
      return `${prefix}/robots.txt itself is always allowed (RFC 9309 §2.2.3).`;
    default:
      return prefix.trim();
  }
}

export function formatVerdict(view: VerdictView, texts: ReadonlyMap<number, string> | undefined, style: Style): string[] {
  const label = view.allowed ? style.green('ALLOWED   ') : style.red('DISALLOWED');
  const out = [
    `${style.bold(label)} ${printable(view.url)}  ${style.dim(`for ${tokenLabel(view.productToken) || '(empty product token)'}`)}`,
  ];
  out.push(`  ${printable(explainWhy(view))}`);
  if (view.line !== undefined && view.line > 0 && texts !== undefined) {
    const groupLine = view.groups?.find((group) => group.rules.some((rule) => rule.line === view.line))?.line;
    if (groupLine !== undefined && groupLine !== view.line) out.push(...quoteLine(texts, groupLine, undefined, style));
    const text = texts.get(view.line) ?? '';
    const at = view.rule === undefined || view.rule.pattern === '' ? -1 : text.indexOf(view.rule.pattern, text.indexOf(':') + 1);
    out.push(...quoteLine(texts, view.line, at === -1 ? undefined : at + 1, style));
  }
  return out;
}

/** The JSON form: plain data, groups reduced to their lines and agents. */
export function verdictJson(view: VerdictView): Record<string, unknown> {
  return {
    url: view.url,
    allowed: view.allowed,
    productToken: view.productToken,
    reason: view.reason,
    ...(view.ruleReason === undefined ? {} : { ruleReason: view.ruleReason }),
    ...(view.line === undefined || view.line === 0 ? {} : { line: view.line }),
    ...(view.rule === undefined ? {} : { rule: { directive: view.rule.directive, pattern: view.rule.pattern, line: view.rule.line } }),
    ...(view.groups === undefined
      ? {}
      : { groups: view.groups.map((group) => ({ line: group.line, agents: group.agents.map((agent) => agent.value) })) }),
    ...(view.matchedBy === undefined ? {} : { matchedBy: view.matchedBy }),
    ...(view.note === undefined ? {} : { note: view.note }),
  };
}
