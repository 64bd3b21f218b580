/**
 * Long lists of single files in one directory. Twenty `Disallow: /private/a.html` lines are what
 * `Disallow: /private/` says in one, and the list misses every file added later.
 */
import type { Rule } from '../types.js';
import type { LintContext } from './context.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';

/** How many single-file rules in one directory make a "long list". */
export const FILES_PER_DIRECTORY = 10;

export function checkFileLists(context: LintContext, out: Diagnostic[], threshold = FILES_PER_DIRECTORY): void {
  for (const group of context.directives.groups) {
    const byDirectory = new Map<string, Rule[]>();
    for (const rule of group.rules) {
      const directory = singleFileDirectory(rule.pattern);
      if (directory === undefined) continue;
      const key = rule.directive + ' ' + directory;
      const list = byDirectory.get(key);
      if (list === undefined) byDirectory.set(key, [rule]);
      else list.push(rule);
    }
    for (const [key, rules] of byDirectory) {
      if (rules.length < threshold) continue;
      const directive = rules[0]?.directive ?? 'disallow';
      const directory = key.slice(key.indexOf(' ') + 1);
      // An opposite rule inside the directory means the owner picks files on purpose.
      const mixed = group.rules.some((rule) => rule.directive !== directive && rule.pattern.startsWith(directory));
      if (mixed) continue;
      const keyName = directive === 'allow' ? 'Allow' : 'Disallow';
      const first = rules[0] as Rule;
      out.push(
        diagnostic(
          'files-instead-of-directory',
          first.line,
          `${rules.length} \`${keyName}:\` rules (lines ${first.line}–${rules[rules.length - 1]?.line ?? first.line}) list single files in \`${directory}\`. If everything in that directory is meant, one \`${keyName}: ${directory}\` covers them, and the files added later too.`,
          { column: 1, related: rules.slice(1, 50).map((rule) => rule.line) },
        ),
      );
    }
  }
}

/** The directory of a rule that names one file (`/a/b.html` → `/a/`), else undefined. */
function singleFileDirectory(pattern: string): string | undefined {
  if (!pattern.startsWith('/') || pattern.includes('*') || pattern.endsWith('/') || pattern.endsWith('$')) return undefined;
  if (pattern.includes('?')) return undefined;
  const slash = pattern.lastIndexOf('/');
  // The root is no directory to recommend: `Disallow: /` would block the whole site.
  if (slash <= 0) return undefined;
  const name = pattern.slice(slash + 1);
  if (!/\.[A-Za-z0-9]{1,5}$/.test(name)) return undefined;
  return pattern.slice(0, slash + 1);
}
