/**
 * Each package's public API is what its `src/index.ts` exports, and its reference lists exactly
 * that: the "### Exports" section of `docs/reference.md` (linked from the package README) names
 * every exported value and type once, as a list item starting with the name in backticks. A name exported but not listed (an internal leaking
 * out, or a new export nobody documented) fails, and so does a name listed but not exported.
 *
 * What a user can import is checked on the built packages, through their `package.json` as Node
 * resolves it: one entry point per library (no subpath such as `/internal`), whose runtime exports
 * are the reference's values; the `heed` command line exports no library at all.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const LIBRARIES = ['parser', 'manager', 'crawlee'] as const;

interface ExportedNames {
  /** Every exported name, values and types. */
  readonly all: readonly string[];
  /** The names that exist at run time (functions, classes, constants). */
  readonly values: readonly string[];
}

/** The names `src/index.ts` exports, as the TypeScript compiler sees them. */
function exportedNames(pkg: string): ExportedNames {
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
  const symbols = checker.getExportsOfModule(symbol);
  // `export type { X }` exports no value, even when X is a class.
  const typeOnly = (s: ts.Symbol) =>
    (s.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
  const isValue = (s: ts.Symbol) =>
    !typeOnly(s) && ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags & ts.SymbolFlags.Value) !== 0;
  return {
    all: symbols.map((s) => s.name).sort(),
    values: symbols
      .filter(isValue)
      .map((s) => s.name)
      .sort(),
  };
}

/** The names listed in the "### Exports" section of the package's reference, or `undefined` when it has none. */
function listedNames(pkg: string): string[] | undefined {
  const path = root(`packages/${pkg}/docs/reference.md`);
  if (!existsSync(path)) return undefined;
  const reference = readFileSync(path, 'utf8');
  const start = reference.indexOf('\n### Exports\n');
  if (start === -1) return undefined;
  const rest = reference.slice(start + 1);
  const end = rest.slice(1).search(/\n#{1,3} /);
  const section = end === -1 ? rest : rest.slice(0, end + 1);
  return [...section.matchAll(/^- `([A-Za-z_$][\w$]*)`/gm)].map((m) => m[1] as string).sort();
}

interface PackageJson {
  readonly name: string;
  readonly main?: string;
  readonly types?: string;
  readonly exports?: Record<string, unknown>;
}

function packageJson(pkg: string): PackageJson {
  return JSON.parse(readFileSync(root(`packages/${pkg}/package.json`), 'utf8')) as PackageJson;
}

/**
 * Imports `specifier` the way a user's code does, in a Node.js process inside the package (a
 * package may import itself by name, through its `exports`): its runtime export names, or the
 * error code when Node refuses it.
 */
function importInPackage(pkg: string, specifier: string): { readonly names: readonly string[] } | { readonly error: string } {
  const script = `import(${JSON.stringify(specifier)}).then(
    (m) => console.log(JSON.stringify({ names: Object.keys(m).sort() })),
    (e) => console.log(JSON.stringify({ error: e.code ?? e.message })),
  );`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root(`packages/${pkg}`),
    encoding: 'utf8',
  });
  return JSON.parse(output) as { names: string[] } | { error: string };
}

describe.each(LIBRARIES)('@heed/%s', (pkg) => {
  const exported = exportedNames(pkg);

  it('lists every exported name in its reference, and only those', () => {
    const listed = listedNames(pkg) ?? [];
    expect(exported.all.length).toBeGreaterThan(0);
    expect(
      listed.filter((name) => !exported.all.includes(name)),
      'listed in the reference but not exported',
    ).toEqual([]);
    expect(
      exported.all.filter((name) => !listed.includes(name)),
      'exported but not listed in the reference',
    ).toEqual([]);
    expect(new Set(listed).size, 'each name listed once').toBe(listed.length);
  });

  it('publishes one entry point, whose runtime exports are the values its reference lists', () => {
    const manifest = packageJson(pkg);
    expect(Object.keys(manifest.exports ?? {}), 'entry points in package.json "exports"').toEqual(['.', './package.json']);
    expect(manifest, 'no typesVersions: there is no subpath to type').not.toHaveProperty('typesVersions');
    expect(importInPackage(pkg, manifest.name)).toEqual({ names: exported.values });
    expect(importInPackage(pkg, `${manifest.name}/internal`)).toEqual({ error: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });
});

describe('heed (the command line)', () => {
  it('exports no library: only its package.json, no Exports list in its docs', () => {
    const manifest = packageJson('cli');
    expect(manifest.main).toBeUndefined();
    expect(manifest.types).toBeUndefined();
    expect(Object.keys(manifest.exports ?? {})).toEqual(['./package.json']);
    expect(listedNames('cli')).toBeUndefined();
    expect(readFileSync(root('packages/cli/README.md'), 'utf8')).not.toContain('\n### Exports\n');
    expect(importInPackage('cli', manifest.name)).toEqual({ error: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  });
});
