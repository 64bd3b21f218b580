/**
 * The AI-usage lines (`Content-Usage`, `Content-Signal`): read with the parser's own statement
 * reader (usage/statement.ts), so the lint reports exactly what makes a preference unknown: a
 * dictionary that does not parse (an upper-case key is the classic case), a key that names no
 * category, a value that is not the signal's token (`yes` in Content-Usage, `n` in Content-Signal).
 * And where the lines sit: a Content-Signal before any group (Heed applies it to every group), a
 * Content-Usage before any group (ignored), a Content-Usage path its group disallows anyway, and a
 * usage line between user-agent lines (where the attach draft's groups and Google's part ways).
 */
import { RobotsTxt } from '../robots-txt.js';
import type { TokenizedLine } from '../tokenize.js';
import { parseContentSignal } from '../usage/content-signal.js';
import { parseContentUsageRule, splitContentUsage } from '../usage/content-usage.js';
import type { StatementProblem } from '../usage/statement.js';
import { VOCABULARIES, type UsageVocabulary } from '../usage/vocabulary.js';
import { agentLineToken } from '../user-agent.js';
import { valueColumn, type LintContext } from './context.js';
import { diagnostic, ruleBeforeUserAgent, type Diagnostic } from './diagnostics.js';

/**
 * Crawl checks spent on `usage-path-disallowed` per file: real files have a handful of
 * Content-Usage lines; a hostile one with thousands is not checked past this (as conflicts.ts does).
 */
const PATH_CHECK_BUDGET = 256;

/**
 * Where the lint is in the file, in both groupings: the crawl groups (Google's: only Allow/Disallow
 * end an agent list) and the usage groups (the attach draft's: usage lines end it too).
 */
interface Position {
  /** Tokens of the current usage group's user-agent lines; empty before the first one. */
  usageAgents: string[];
  /** The usage group's agent list has ended: the next user-agent line opens another. */
  usageClosed: boolean;
  /** The current crawl group has an Allow/Disallow: its agent list has ended. */
  crawlRules: boolean;
  /** The first usage line after the crawl group's latest user-agent line, while its agent list is open; 0 when none. */
  usageInAgentList: number;
  usageInAgentListKey: string;
}

export function checkUsage(context: LintContext, out: Diagnostic[]): void {
  let robots: RobotsTxt | undefined;
  const budget = { left: PATH_CHECK_BUDGET };
  const at: Position = { usageAgents: [], usageClosed: false, crawlRules: false, usageInAgentList: 0, usageInAgentListKey: '' };
  for (const record of context.lines) {
    if (record.kind !== 'directive') continue;
    const directive = record.directive;
    if (directive === 'user-agent') {
      enterAgentLine(record, at, out);
      continue;
    }
    if (directive === 'allow' || directive === 'disallow') {
      at.crawlRules = true;
      at.usageInAgentList = 0;
      at.usageClosed = at.usageAgents.length > 0;
      continue;
    }
    if (directive !== 'content-signal' && directive !== 'content-usage') continue;
    const inGroup = at.usageAgents.length > 0;
    if (inGroup) {
      at.usageClosed = true;
      if (!at.crawlRules && at.usageInAgentList === 0) {
        at.usageInAgentList = record.line;
        at.usageInAgentListKey = record.key ?? directive;
      }
    }
    if (directive === 'content-signal') {
      const { problems } = parseContentSignal(record.valueBytes ?? '', record.line);
      report(record, VOCABULARIES['content-signal'], problems, out);
      if (!inGroup) {
        out.push(
          diagnostic(
            'content-signal-outside-group',
            record.line,
            '`Content-Signal:` comes before any `User-agent:` line. Heed (like Cloudflare) applies it to every group, but RFC 9309 readers drop lines outside groups. Put it in the `User-agent: *` group (and in every group that should carry it).',
            { column: 1 },
          ),
        );
      }
    } else {
      const parsed = parseContentUsageRule(record.valueBytes ?? '', record.line);
      report(record, VOCABULARIES['content-usage'], parsed.problems, out);
      if (!inGroup) {
        out.push(ruleBeforeUserAgent(record, 'reader'));
      } else if (!parsed.statement.invalid && budget.left > 0) {
        robots ??= new RobotsTxt(byteStringToBytes(context.bytes), { maxBytes: context.maxBytes });
        checkDisallowedPath(record, parsed.normalizedPath, at.usageAgents, robots, budget, out);
      }
    }
  }
}

/**
 * A user-agent line: it opens a usage group after a rule or usage line, a crawl group only after an
 * Allow/Disallow. Where the two differ (a usage line between user-agent lines), the file says two
 * things at once: that is reported.
 */
function enterAgentLine(record: TokenizedLine, at: Position, out: Diagnostic[]): void {
  if (at.usageInAgentList !== 0) {
    const key = at.usageInAgentListKey;
    out.push(
      diagnostic(
        'usage-splits-agent-list',
        at.usageInAgentList,
        `\`${key}:\` sits between \`User-agent:\` lines. AI-usage readers (draft-ietf-aipref-attach) end the agent list there, so it speaks only for the agents above it; for Allow/Disallow, Google reads it as an unknown key, so the \`User-agent: ${record.value}\` on line ${record.line} shares the Allow/Disallow rules of the agents above. Move the usage lines below the group's Allow/Disallow rules, or give the agents below a group with rules of its own.`,
        { column: 1, related: [record.line] },
      ),
    );
    at.usageInAgentList = 0;
  }
  at.crawlRules = false;
  if (at.usageClosed) {
    at.usageAgents = [];
    at.usageClosed = false;
  }
  at.usageAgents.push(agentLineToken(record.valueBytes ?? ''));
}

function report(record: TokenizedLine, vocabulary: UsageVocabulary, problems: readonly StatementProblem[], out: Diagnostic[]): void {
  const column = valueColumn(record);
  const value = record.value ?? '';
  for (const problem of problems) {
    switch (problem.kind) {
      case 'invalid-dictionary':
        if (problem.error === 'uppercase-key') {
          out.push(
            diagnostic(
              'usage-uppercase-key',
              record.line,
              `\`${value}\` has a key with capitals; Structured Field keys are lower-case, so the whole \`${vocabulary.key}\` line fails and states no preference at all. Write the keys in lower case: \`${lowerKeys(vocabulary, value)}\`.`,
              { column: column + problem.offset },
            ),
          );
        } else {
          const what = value === '' ? `\`${vocabulary.key}:\`` : `\`${value}\``;
          const why =
            value === ''
              ? 'has no value'
              : problem.error === 'empty'
                ? 'states no preference'
                : `is not an RFC 9651 dictionary (${problem.message})`;
          out.push(
            diagnostic(
              'usage-invalid-dictionary',
              record.line,
              `${what} ${why}, so every preference of the line is unknown. Write \`${example(vocabulary)}\`.`,
              { column: column + Math.min(problem.offset, value.length) },
            ),
          );
        }
        break;
      case 'unknown-category': {
        const labels = [...vocabulary.labels.keys()].map((label) => `\`${label}\``).join(', ');
        out.push(
          diagnostic(
            'usage-unknown-category',
            record.line,
            `\`${problem.key}\` names no usage category of \`${vocabulary.key}\` (known: ${labels}); readers ignore it. Check the spelling.`,
            { column: column + Math.max(0, value.indexOf(problem.key)) },
          ),
        );
        break;
      }
      case 'wrong-value':
        out.push(
          diagnostic(
            'usage-wrong-value',
            record.line,
            problem.meant !== undefined
              ? `\`${problem.key}=${problem.written}\`: \`${vocabulary.key}\` says \`${vocabulary.allow}\` or \`${vocabulary.disallow}\`, not \`${problem.written}\` (that is the other signal's spelling), so this preference is unknown. Write \`${problem.key}=${problem.meant}\`.`
              : `\`${problem.key}\` has the value \`${problem.written}\`; only the tokens \`${vocabulary.allow}\` and \`${vocabulary.disallow}\` state a preference, so it is unknown. Write \`${problem.key}=${vocabulary.allow}\` or \`${problem.key}=${vocabulary.disallow}\`.`,
            { column: column + Math.max(0, value.indexOf(problem.key)) },
          ),
        );
        break;
    }
  }
}

/** The value with its dictionary keys (not its path, not its values) in lower case. */
function lowerKeys(vocabulary: UsageVocabulary, value: string): string {
  const { path, offset } = vocabulary.signal === 'content-usage' ? splitContentUsage(value) : { path: '', offset: 0 };
  const dictionary = value
    .slice(offset)
    .replace(/(^|[,;]\s*)([A-Za-z*][A-Za-z0-9_.*-]*)/g, (_, separator: string, key: string) => separator + key.toLowerCase());
  return path === '' ? dictionary : `${path} ${dictionary}`;
}

function example(vocabulary: UsageVocabulary): string {
  const [first, second] = [...vocabulary.labels.keys()];
  const dictionary = `${first}=${vocabulary.disallow}, ${second}=${vocabulary.allow}`;
  return vocabulary.signal === 'content-usage' ? `${vocabulary.key}: /path/ ${dictionary}` : `${vocabulary.key}: ${dictionary}`;
}

/**
 * A Content-Usage rule whose every path is disallowed by its group: no preference applies to a
 * path that may not be crawled. Checked for every crawler the group speaks to (its tokens, with the
 * groups merged for them): the path's literal prefix must be disallowed by a prefix rule, and no
 * allow rule of those groups may win for a path under it.
 */
function checkDisallowedPath(
  record: TokenizedLine,
  normalizedPath: string,
  agents: readonly string[],
  robots: RobotsTxt,
  budget: { left: number },
  out: Diagnostic[],
): void {
  const star = normalizedPath.indexOf('*');
  let prefix = star === -1 ? normalizedPath : normalizedPath.slice(0, star);
  if (prefix.endsWith('$')) prefix = prefix.slice(0, -1);
  if (prefix === '') prefix = '/';
  let decidingLine = 0;
  for (const agent of agents) {
    if (budget.left-- <= 0) return;
    const token = agent === '*' ? '' : agent;
    const verdict = robots.explain(prefix, token);
    const rule = verdict.rule;
    if (verdict.allowed || rule === undefined || rule.normalizedPattern.endsWith('$')) return;
    const length = rule.normalizedPattern.length;
    for (const applied of verdict.groups) {
      for (const other of applied.rules) {
        if (other.directive !== 'allow' || other.normalizedPattern.length < length) continue;
        const literal = other.normalizedPattern.split('*')[0] ?? '';
        if (literal.startsWith(prefix) || prefix.startsWith(literal)) return;
      }
    }
    decidingLine = rule.line;
  }
  if (decidingLine === 0) return;
  out.push(
    diagnostic(
      'usage-path-disallowed',
      record.line,
      `\`Content-Usage: ${record.value}\` speaks for paths its group disallows (line ${decidingLine}); preferences apply only to what may be crawled, so this rule never applies. Remove it, or allow the path.`,
      { column: valueColumn(record), related: [decidingLine] },
    ),
  );
}

function byteStringToBytes(bytes: string): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}
