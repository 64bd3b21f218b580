/**
 * Each package's public API is what its `src/index.ts` exports, and its README lists exactly that:
 * the "### Exports" section of the README names every exported value and type once, as a list
 * item starting with the name in backticks. A name exported but not listed (an internal leaking
 * out, or a new export nobody documented) fails, and so does a name listed but not exported.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const PACKAGES = ['parser', 'manager', 'crawlee'] as const;

/** The names `src/index.ts` exports (values and types), as the TypeScript compiler sees them. */
function exportedNames(pkg: string): string[] {
  const file = root(`packages/${pkg}/src/index.ts`);
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`cannot read ${file}`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort();
}

/** The names listed in the README's "### Exports" section. */
function listedNames(pkg: string): string[] {
  const readme = readFileSync(root(`packages/${pkg}/README.md`), 'utf8');
  const start = readme.indexOf('\n### Exports\n');
  if (start === -1) return [];
  const rest = readme.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,3} /);
  const section = end === -1 ? rest : rest.slice(0, end + 1);
  return [...section.matchAll(/^- `([A-Za-z_$][\w$]*)`/gm)].map((m) => m[1] as string).sort();
}

describe.each(PACKAGES)('@heed/%s', (pkg) => {
  it('lists every exported name in its README, and only those', () => {
    const exported = exportedNames(pkg);
    const listed = listedNames(pkg);
    expect(exported.length).toBeGreaterThan(0);
    expect(
      listed.filter((name) => !exported.includes(name)),
      'listed in the README but not exported',
    ).toEqual([]);
    expect(
      exported.filter((name) => !listed.includes(name)),
      'exported but not listed in the README',
    ).toEqual([]);
    expect(new Set(listed).size, 'each name listed once').toBe(listed.length);
  });
});
