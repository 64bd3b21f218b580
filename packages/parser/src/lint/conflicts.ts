/**
 * Rules that never decide. For every set of groups a crawler can end up with (the groups naming
 * it, merged, or the `*` groups), a rule R never decides when another rule W matches every URL R
 * matches and always wins over it (Google's order: longer pattern first, `allow` on a tie). Then:
 * - W has the opposite verdict and is longer: R is shadowed (`shadowed-rule`);
 * - W is an `allow` of the same length as a `disallow` R: the classic equal-length conflict;
 * - W has the same verdict: R is redundant.
 *
 * "W matches every URL R matches" is decided on the patterns: with an implicit trailing `*` (none
 * after `$`), W's pattern must match R's pattern read as text, where R's `*` can only be matched by
 * a `*` of W. That is exact for this pattern language up to a corner (a `*` of R matched by a
 * literal of W never is), so no false reports.
 */
import { selectGroups } from '../compile.js';
import type { Group, Rule } from '../types.js';
import type { LintContext } from './context.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';

/** Pattern comparisons per file before the check gives up (files with tens of thousands of rules). */
const COMPARISON_BUDGET = 2_000_000;

interface Entry {
  readonly rule: Rule;
  readonly group: Group;
  readonly allow: boolean;
  /** Google's priority: the length of the normalised pattern. */
  readonly priority: number;
  /** The set of URLs (paths) the rule matches, as a pattern with `*` only and no implicit tail. */
  readonly glob: string;
  /** The glob's literal text before its first `*`. */
  readonly prefix: string;
  /** The glob's longest literal run: a cheap first test, since a covering glob's runs all appear in the covered one. */
  readonly longest: string;
}

type Finding = {
  code: 'shadowed-rule' | 'equal-length-conflict' | 'redundant-rule';
  winner: Entry;
  loser: Entry;
  merged: readonly Group[];
};

export function checkConflicts(context: LintContext, out: Diagnostic[]): void {
  const { groups } = context.directives;
  if (groups.length === 0) return;
  const seenSets = new Set<string>();
  const findings = new Map<number, Finding>();
  const budget = { left: COMPARISON_BUDGET };

  const tokens = new Set<string>(['*']);
  for (const group of groups) for (const agent of group.agents) tokens.add(agent.token.toLowerCase());
  for (const token of tokens) {
    const applied = selectGroups(groups, token === '*' ? '' : token).groups;
    const key = applied.map((group) => group.index).join(',');
    if (applied.length === 0 || seenSets.has(key)) continue;
    seenSets.add(key);
    findInSet(applied, findings, budget);
    if (budget.left <= 0) break;
  }

  for (const finding of [...findings.values()].sort((a, b) => a.loser.rule.line - b.loser.rule.line)) out.push(describe(finding));
}

function toEntry(rule: Rule, group: Group): Entry | undefined {
  const pattern = rule.normalizedPattern;
  if (pattern.length === 0) return undefined; // an empty rule matches nothing (Disallow:) — no conflict
  // Google: `/a*$` is `/a*`; any other trailing `$` anchors; no `$` means "and anything after".
  let glob = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern + '*';
  glob = glob.replace(/\*{2,}/g, '*');
  const star = glob.indexOf('*');
  const longest = glob.split('*').reduce((a, b) => (b.length > a.length ? b : a), '');
  return {
    rule,
    group,
    allow: rule.directive === 'allow',
    priority: pattern.length,
    glob,
    prefix: star === -1 ? glob : glob.slice(0, star),
    longest,
  };
}

/** Google's `allow: /dir/index.html` also allows `/dir/` through a shorter pattern: never call it dead. */
function hasIndexAlternative(entry: Entry): boolean {
  return entry.allow && /\/index\.htm/.test(entry.rule.normalizedPattern);
}

function findInSet(groups: readonly Group[], findings: Map<number, Finding>, budget: { left: number }): void {
  const entries: Entry[] = [];
  for (const group of groups) {
    for (const rule of group.rules) {
      const entry = toEntry(rule, group);
      if (entry !== undefined) entries.push(entry);
    }
  }
  if (entries.length < 2) return;

  const byPrefix = new Map<string, Entry[]>();
  for (const entry of entries) {
    const list = byPrefix.get(entry.prefix);
    if (list === undefined) byPrefix.set(entry.prefix, [entry]);
    else list.push(entry);
  }
  const prefixLengths = [...new Set(entries.map((entry) => entry.prefix.length))].sort((a, b) => a - b);

  for (const loser of entries) {
    if (findings.has(loser.rule.line) || hasIndexAlternative(loser)) continue;
    let found: Finding | undefined;
    // A winner's literal prefix is a prefix of the loser's: only those can cover it.
    for (const length of prefixLengths) {
      if (length > loser.prefix.length) break;
      const candidates = byPrefix.get(loser.prefix.slice(0, length));
      if (candidates === undefined) continue;
      for (const winner of candidates) {
        if (winner === loser || winner.priority < loser.priority) continue;
        const code = classify(winner, loser);
        if (code === undefined) continue;
        if (--budget.left <= 0) return;
        if (!loser.glob.includes(winner.longest) || !covers(winner.glob, loser.glob)) continue;
        if (found === undefined || (found.code === 'redundant-rule' && code !== 'redundant-rule'))
          found = { code, winner, loser, merged: groups };
        if (code !== 'redundant-rule') break;
      }
      if (found !== undefined && found.code !== 'redundant-rule') break;
    }
    if (found !== undefined) findings.set(loser.rule.line, found);
  }
}

/** What it means if `winner` covers `loser`, or undefined when it would still not always win. */
function classify(winner: Entry, loser: Entry): Finding['code'] | undefined {
  // Same verdict and length: the earlier line wins (so of two equal rules the later one is redundant).
  if (winner.allow === loser.allow)
    return winner.priority > loser.priority || winner.rule.line < loser.rule.line ? 'redundant-rule' : undefined;
  if (winner.priority > loser.priority) return 'shadowed-rule';
  // Equal length: the allow wins, so only a covering allow silences a disallow.
  return winner.allow ? 'equal-length-conflict' : undefined;
}

/**
 * Whether glob `outer` matches every path glob `inner` matches: `outer` is matched against `inner`
 * as text, `*` in `outer` matching any run (including `inner`'s own `*`), literals only literals.
 */
export function covers(outer: string, inner: string): boolean {
  let o = 0;
  let i = 0;
  let starO = -1;
  let starI = 0;
  while (i < inner.length) {
    const oc = outer[o];
    if (oc === '*') {
      starO = o++;
      starI = i;
    } else if (oc !== undefined && oc === inner[i] && inner[i] !== '*') {
      o++;
      i++;
    } else if (starO !== -1) {
      o = starO + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (outer[o] === '*') o++;
  return o === outer.length;
}

function ruleText(entry: Entry): string {
  return `\`${entry.allow ? 'Allow' : 'Disallow'}: ${entry.rule.pattern}\``;
}

function describe(finding: Finding): Diagnostic {
  const { winner, loser, code } = finding;
  const where = `line ${winner.rule.line}`;
  const merged =
    winner.group !== loser.group
      ? ` (the groups on lines ${loser.group.line} and ${winner.group.line} name the same crawler, so their rules are merged)`
      : '';
  const related = [winner.rule.line];
  switch (code) {
    case 'shadowed-rule':
      return diagnostic(
        'shadowed-rule',
        loser.rule.line,
        `${ruleText(loser)} never decides: ${ruleText(winner)} on ${where} matches every URL it matches and is longer, so it always wins${merged}. Remove one of them, or make the one you mean more specific (longer).`,
        { column: 1, related },
      );
    case 'equal-length-conflict':
      return diagnostic(
        'equal-length-conflict',
        loser.rule.line,
        `${ruleText(loser)} and ${ruleText(winner)} on ${where} are equally long and match the same URLs; on a tie the allow wins (Google, RFC 9309), so this disallow never applies${merged}. Remove one; if the disallow is meant to win, make it longer (a trailing \`*\` does that without changing what it matches).`,
        { column: 1, related },
      );
    case 'redundant-rule':
      return diagnostic(
        'redundant-rule',
        loser.rule.line,
        `${ruleText(loser)} never decides: ${ruleText(winner)} on ${where} has the same verdict and always wins for the URLs it matches${merged}. The line can go.`,
        { column: 1, related },
      );
  }
}
