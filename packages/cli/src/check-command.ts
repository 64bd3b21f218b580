/**
 * `heed check <url...> --user-agent X`: the verdict a Heed crawler would get, fetched through the
 * manager (status policy, redirects, size cap, single flight), with the deciding line and group, or
 * why no rule could decide.
 */
import { originOf, type RobotsRecord, type Verdict } from '@heed/manager';
import { UsageError, type CliOptions } from './args.js';
import type { CommandResult } from './lint-command.js';
import { openManager } from './manager.js';
import { lineTexts, type Style } from './output.js';
import { describeRecord } from './source.js';
import { formatUsage, usageAllowed, usageJson } from './usage-view.js';
import { formatVerdict, verdictJson, type VerdictView } from './verdict.js';

export async function checkCommand(urls: readonly string[], options: CliOptions, style: Style): Promise<CommandResult> {
  for (const url of urls) {
    if (originOf(url) === undefined)
      throw new UsageError(`"${url}" is not an absolute http(s) URL; check needs full URLs, e.g. https://example.com/page.`);
  }
  const manager = openManager(options.manager);
  try {
    const out: string[] = [];
    const results: Record<string, unknown>[] = [];
    let allAllowed = true;
    // All origins are fetched at once (the manager bounds concurrency and fetches each origin once).
    const { purposes } = options;
    const answers = await Promise.all(
      urls.map(async (url) => ({
        verdict: await manager.decide(url),
        record: await manager.get(url),
        usage: purposes.length === 0 ? undefined : await manager.usage(url, { purposes }),
      })),
    );
    // One robots.txt header per origin, its URLs under it in the order given.
    const byOrigin = new Map<string, typeof answers>();
    for (const answer of answers) byOrigin.set(answer.verdict.origin, [...(byOrigin.get(answer.verdict.origin) ?? []), answer]);
    let previousOrigin: string | undefined;
    for (const { verdict, record, usage } of options.json ? answers : [...byOrigin.values()].flat()) {
      const body = bodyOf(record, verdict.reason);
      const view = toView(verdict, record);
      allAllowed &&= verdict.allowed && (usage === undefined || usageAllowed(usage, purposes));
      if (options.json) {
        results.push({
          ...verdictJson(view),
          ...(usage === undefined ? {} : usageJson(usage, purposes)),
          origin: verdict.origin,
          robotsTxt: `${verdict.origin}/robots.txt`,
          record: {
            status: record.status,
            httpStatus: record.httpStatus ?? null,
            fetchedAt: new Date(record.fetchedAt).toISOString(),
            ...(record.status === 'ok' ? {} : { problem: record.problem }),
          },
        });
        continue;
      }
      if (verdict.origin !== previousOrigin)
        out.push(
          style.dim(
            `robots.txt: ${verdict.origin}/robots.txt (${record.httpStatus === undefined ? (record.status === 'ok' ? record.status : record.problem.code) : `HTTP ${record.httpStatus}`})`,
          ),
        );
      previousOrigin = verdict.origin;
      out.push(...formatVerdict(view, body === undefined ? undefined : lineTexts(body), style));
      if (usage !== undefined) out.push(...formatUsage(usage, purposes, style));
      out.push('');
    }
    const exitCode = allAllowed ? 0 : 1;
    if (options.json)
      return {
        exitCode,
        stdout: JSON.stringify({ userAgent: options.userAgent, productToken: options.productToken, results }, null, 2) + '\n',
      };
    return { exitCode, stdout: out.join('\n') };
  } finally {
    await manager.close();
  }
}

/** The robots.txt bytes the verdict was made from: the body, or the last good copy. */
function bodyOf(record: RobotsRecord, reason: Verdict['reason']): Uint8Array | undefined {
  const source = reason === 'stale-copy' && record.status === 'unreachable' ? record.lastGood : record;
  return source?.status === 'ok' ? new Uint8Array(Buffer.from(source.body, 'base64')) : undefined;
}

function toView(verdict: Verdict, record: RobotsRecord): VerdictView {
  const base = { url: verdict.url, allowed: verdict.allowed, productToken: verdict.productToken, reason: verdict.reason };
  const detail = verdict.explain();
  if (detail !== undefined) {
    const { groups } = detail;
    const ruleReason = verdict.line > 0 ? 'rule' : groups.length > 0 ? 'no-matching-rule' : 'no-group';
    return {
      ...base,
      ruleReason,
      line: verdict.line,
      ...(detail.rule === undefined ? {} : { rule: detail.rule }),
      groups,
      matchedBy: detail.matchedBy,
      ...(verdict.reason === 'stale-copy'
        ? {
            note: `${describeRecord(record).replace(/\.$/, '')}; the last good copy (fetched ${new Date(record.status === 'unreachable' ? (record.lastGood?.fetchedAt ?? 0) : 0).toISOString()}) decided.`,
          }
        : {}),
    };
  }
  const note =
    verdict.reason === 'long-unreachable'
      ? `${describeRecord(record).replace(/ until it answers again.*$/, '')}; it has been unreachable for over 30 days with no good copy, so everything is allowed (Google's rule).`
      : verdict.reason === 'stale-copy'
        ? `${describeRecord(record).replace(/\.$/, '')}; the last good copy was unavailable (e.g. 404), so everything is allowed.`
        : describeRecord(record);
  return { ...base, note };
}
