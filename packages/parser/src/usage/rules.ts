/**
 * The usage rules of one crawler, compiled from the directive table rows its groups hold
 * (compile.ts picks the rows with the same group selection as Allow/Disallow):
 * - Content-Usage rules: the longest path match wins, with Allow/Disallow's pattern language (`*`,
 *   `$`, percent-encoding) and the same matching engine (match.ts). Rules whose paths are equally
 *   long and all match combine most-restrictively; that covers the attach draft's "identical paths
 *   with conflicting preferences" and extends it to equal-length patterns such as `/a*` and `/ab`,
 *   where Allow/Disallow would pick the permissive one.
 * - Content-Signal lines: every one of the groups (and those before any group) applies to every path.
 * The statements that apply then combine most-restrictively (verdict.ts).
 *
 * Compiling reads only the paths of the Content-Usage rules; a rule's dictionary is parsed the
 * first time the rule applies, so a hostile file of thousands of rules costs about what as many
 * Disallow rules cost.
 */
import { OBJECT, SLOT } from '../match/held-bytes.js';
import { decodeUnreserved, escapeBytes } from '../escape.js';
import { RuleMatcher } from '../match.js';
import { HAS_STAR, KIND, LINE_SHIFT, ROW, readRow, type DirectiveTable } from '../table.js';
import type { ProductTokens } from '../user-agent.js';
import { parseContentSignal } from './content-signal.js';
import { parseContentUsageRule, splitContentUsage } from './content-usage.js';
import type { UsageStatement } from './statement.js';
import { appliedStatement, combineStatements, UsageVerdict, type AppliedStatement, type UsageDecision } from './verdict.js';

/** A parsed Content-Usage or Content-Signal statement: its object, its categories and their decisions. */
const STATEMENT = 1_024;

export class UsageRules {
  /** What the Content-Signal lines alone say: the answer wherever no Content-Usage rule matches. */
  private readonly signalsOnly: {
    readonly statements: readonly AppliedStatement[];
    readonly decisions: Readonly<Record<string, UsageDecision>>;
  };
  /** Content-Usage statements parsed so far, by table row. */
  private readonly parsed = new Map<number, UsageStatement>();

  private constructor(
    private readonly table: DirectiveTable,
    /** Content-Usage rule rows by the line of the first rule with their path. */
    private readonly byPath: ReadonlyMap<number, readonly number[]>,
    private readonly matcher: RuleMatcher | undefined,
    /** Content-Signal statements: they apply to every path. */
    private readonly signals: readonly UsageStatement[],
  ) {
    const ordered = [...signals].sort((a, b) => a.line - b.line);
    // Shared by every verdict that no Content-Usage rule decides: frozen, so no caller can change another's.
    const decisions = combineStatements(ordered);
    for (const decision of Object.values(decisions)) Object.freeze(decision);
    this.signalsOnly = Object.freeze({
      statements: Object.freeze(ordered.map((statement) => Object.freeze(appliedStatement(statement)))),
      decisions: Object.freeze(decisions),
    });
  }

  /**
   * The bytes these rules hold, each statement counted as parsed (they are, as paths are checked):
   * see match/held-bytes.ts.
   */
  heldBytes(): number {
    let bytes = 6 * OBJECT + (this.matcher?.heldBytes(this.table.text) ?? 0) + STATEMENT * this.signals.length;
    for (const rows of this.byPath.values()) bytes += OBJECT + 5 * SLOT + (SLOT + STATEMENT) * rows.length;
    return bytes;
  }

  /** Compiles the usage lines at `rowIndices` of `table`. */
  static compile(table: DirectiveTable, rowIndices: readonly number[], decodeUnreservedEscapes: boolean): UsageRules {
    const paths = new Map<string, { line: number; rows: number[] }>();
    const signals: UsageStatement[] = [];
    for (const row of rowIndices) {
      const { line, directive, value } = readRow(table, row);
      if (directive === 'content-signal') {
        signals.push(parseContentSignal(value, line).statement);
      } else if (directive === 'content-usage') {
        const normalized = escapeBytes(splitContentUsage(value).path);
        const path = decodeUnreservedEscapes ? decodeUnreserved(normalized) : normalized;
        const entry = paths.get(path);
        if (entry === undefined) paths.set(path, { line, rows: [row] });
        else entry.rows.push(row);
      }
    }
    if (paths.size === 0) return new UsageRules(table, new Map(), undefined, signals);
    // One row per distinct path, in a small table of their own, for the Allow/Disallow matcher.
    const rows = new Int32Array(paths.size * ROW);
    const byPath = new Map<number, readonly number[]>();
    const parts: string[] = [];
    let length = 0;
    let i = 0;
    for (const [path, { line, rows: sources }] of paths) {
      parts.push(path);
      length += path.length;
      rows[i * ROW] = (line << LINE_SHIFT) | (path.includes('*') ? HAS_STAR : 0) | KIND.disallow;
      rows[i * ROW + 1] = length;
      byPath.set(line, sources);
      i++;
    }
    const own: DirectiveTable = { text: parts.join(''), rows, count: paths.size, hasUsage: false };
    const matcher = RuleMatcher.fromTable(
      own,
      Array.from({ length: paths.size }, (_, k) => k),
      false,
    );
    return new UsageRules(table, byPath, matcher, signals);
  }

  /** The usage verdict for `path` (canonical, decoded as the matcher's patterns are). */
  verdict(path: string, crawlAllowed: boolean, productToken: ProductTokens): UsageVerdict {
    if (!crawlAllowed) return new UsageVerdict(productToken, path, false, [], {});
    const lines = this.matcher === undefined ? [] : this.matcher.longestMatches(path);
    if (lines.length === 0) return new UsageVerdict(productToken, path, true, this.signalsOnly.statements, this.signalsOnly.decisions);
    const applied: UsageStatement[] = [...this.signals];
    for (const line of lines) for (const row of this.byPath.get(line) ?? []) applied.push(this.statement(row));
    applied.sort((a, b) => a.line - b.line);
    return new UsageVerdict(productToken, path, true, applied.map(appliedStatement), combineStatements(applied));
  }

  private statement(row: number): UsageStatement {
    let statement = this.parsed.get(row);
    if (statement === undefined) {
      const { line, value } = readRow(this.table, row);
      statement = parseContentUsageRule(value, line).statement;
      this.parsed.set(row, statement);
    }
    return statement;
  }
}
