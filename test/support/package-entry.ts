/**
 * The file Node loads for `import('<name>')` from a project outside the workspace, read from the
 * package's `exports` (its `import` condition) or `main`: for loading a package of another
 * project by path, as Crawlee 4's ESM-only packages must be.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The entry file of package `name` installed in project `dir`. */
export function packageEntry(dir: string, name: string): string {
  const root = join(dir, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main?: string; exports?: unknown };
  let entry: unknown = (pkg.exports as Record<string, unknown> | undefined)?.['.'] ?? pkg.exports ?? pkg.main ?? 'index.js';
  while (typeof entry === 'object' && entry !== null) {
    const conditions = entry as Record<string, unknown>;
    entry = conditions['import'] ?? conditions['node'] ?? conditions['default'];
  }
  if (typeof entry !== 'string') throw new Error(`${name} in ${dir} has no entry point for import()`);
  return join(root, entry);
}
