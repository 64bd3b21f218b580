/**
 * `heed explain <robots.txt file|url> <url...> --user-agent X`: each URL judged against one
 * robots.txt, with the line and group that decided.
 */
import { lint, parseRobotsTxt, printable } from '@heed/parser';
import type { CliOptions } from './args.js';
import type { CommandResult } from './lint-command.js';
import { lineTexts, type Style } from './output.js';
import { describeRecord, hasRules, loadRobots, READ_LIMIT, type LoadedRobots } from './source.js';
import { formatUsage, robotsTxtUsage, usageAllowed, usageJson } from './usage-view.js';
import { formatVerdict, tokenLabel, verdictJson, type VerdictView } from './verdict.js';

export async function explainCommand(source: string, urls: readonly string[], options: CliOptions, style: Style): Promise<CommandResult> {
  const header = options.userAgent;
  const token = options.productToken;
  const loaded = await loadRobots(source, options);
  const robots = hasRules(loaded.record) && loaded.body !== undefined ? parseRobotsTxt(loaded.body) : undefined;
  const note = loaded.record === undefined || loaded.record.status === 'ok' ? undefined : describeRecord(loaded.record);
  const notes = robots === undefined ? [] : bodyNotes(loaded);

  const views: VerdictView[] = urls.map((url) => {
    if (robots === undefined) {
      // A fresh fetch that got no rules: unavailable allows everything, unreachable nothing.
      const status = loaded.record?.status ?? 'unreachable';
      return {
        url,
        allowed: status === 'unavailable',
        productToken: token,
        reason: status,
        ...(note === undefined ? {} : { note }),
      };
    }
    const explanation = robots.explain(url, token);
    return {
      url,
      allowed: explanation.allowed,
      productToken: token,
      reason: 'rules',
      ruleReason: explanation.reason,
      line: explanation.line,
      ...(explanation.rule === undefined ? {} : { rule: explanation.rule }),
      groups: explanation.groups,
      matchedBy: explanation.matchedBy,
    };
  });
  // --purpose: the file's Content-Usage / Content-Signal lines (explain reads one robots.txt, not tdmrep.json).
  const { purposes } = options;
  const usages = purposes.length === 0 ? [] : urls.map((url) => robotsTxtUsage(url, robots?.usage(url, token), loaded.name));
  const exitCode = views.every((view) => view.allowed) && usages.every((usage) => usageAllowed(usage, purposes)) ? 0 : 1;
  if (options.json) {
    const results = views.map((view, i) => ({ ...verdictJson(view), ...(usages[i] === undefined ? {} : usageJson(usages[i], purposes)) }));
    const json = {
      source: loaded.name,
      ...(loaded.record === undefined ? {} : { httpStatus: loaded.record.httpStatus ?? null }),
      userAgent: header,
      productToken: token,
      ...(notes.length === 0 ? {} : { notes }),
      results,
    };
    return { exitCode, stdout: JSON.stringify(json, null, 2) + '\n' };
  }
  const texts = loaded.body === undefined ? undefined : lineTexts(loaded.body);
  const out = [
    style.dim(
      `robots.txt: ${printable(loaded.name)}${loaded.record?.httpStatus === undefined ? '' : ` (HTTP ${loaded.record.httpStatus})`}`,
    ),
  ];
  if (typeof token !== 'string')
    out.push(
      style.dim(
        `user-agent ${JSON.stringify(header)} is matched by the product tokens ${tokenLabel(token)}: the groups of each named token apply, the * group only when none is named`,
      ),
    );
  else if (token !== header.trim())
    out.push(style.dim(`user-agent ${JSON.stringify(header)} is matched by its product token ${token || '(empty)'}`));
  for (const text of notes) out.push(`${style.cyan('note')} ${printable(text)}`);
  views.forEach((view, i) => {
    out.push('', ...formatVerdict(view, texts, style));
    const usage = usages[i];
    if (usage !== undefined) out.push(...formatUsage(usage, purposes, style));
  });
  if (purposes.some((p) => p === 'train-ai' || p === 'ai-input'))
    out.push(
      '',
      style.dim("explain reads only this robots.txt; `heed check URL --purpose …` also reads the site's /.well-known/tdmrep.json."),
    );
  return { exitCode, stdout: out.join('\n') + '\n' };
}

/**
 * What the verdicts rest on, when it is not a plain robots.txt: a body that is binary or an HTML
 * page (no rules in it, so everything is allowed — lint flags the same), or one cut at the limit.
 */
function bodyNotes(loaded: LoadedRobots): string[] {
  const body = loaded.body;
  if (body === undefined) return [];
  const notes = lint(body)
    .filter((d) => d.code === 'binary-content' || d.code === 'html-content')
    .map((d) => d.message);
  if (loaded.truncated) {
    const size =
      loaded.size === undefined
        ? `larger than ${READ_LIMIT.toLocaleString('en-US')} bytes`
        : `${loaded.size.toLocaleString('en-US')} bytes`;
    notes.push(
      `The robots.txt is ${size}; crawlers read only its first ${READ_LIMIT.toLocaleString('en-US')} bytes, and so do these verdicts.`,
    );
  }
  return notes;
}
