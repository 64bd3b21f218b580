/**
 * A user's project, outside the workspace: the four packages packed with `pnpm pack` (their
 * `prepack` builds them), installed with plain `npm install` next to `@crawlee/cheerio` at one
 * release, into a directory under the system's temp dir. Projects are kept and keyed by the hash
 * of everything that goes into them (tarballs, fixtures, release), so an unchanged package set is
 * installed once; npm's own cache makes a new install of known packages quick. A test file's
 * projects install two at a time, beside its tests ({@link ProjectInstalls}).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The same crawls on Crawlee 4 (its storage backend, its `statistics`). */
const FIXTURES_V4 = fileURLToPath(new URL('./fixtures-v4/', import.meta.url));
/** The folders under `packages/` that are published, each as the package `NPM_NAMES` gives. */
export const PACKAGES = ['parser', 'manager', 'crawlee', 'cli'] as const;
export const NPM_NAMES: Readonly<Record<(typeof PACKAGES)[number], string>> = {
  parser: '@heed/parser',
  manager: '@heed/manager',
  crawlee: '@heed/crawlee',
  cli: 'heed',
};
// One folder per checkout: two clones testing at once never pack into, or clear, each other's projects.
const WORK = join(tmpdir(), 'heed-compat', createHash('sha256').update(ROOT).digest('hex').slice(0, 12));

/**
 * Runs `task` while holding the lock `name` of this checkout, which other processes take too (two
 * test files of `pnpm test:compat` pack at once, and each pack rebuilds the same `dist`). A lock
 * whose holder has died is taken over.
 */
async function exclusively<T>(name: string, task: () => Promise<T>): Promise<T> {
  const lock = join(WORK, `${name}.lock`);
  const owner = join(lock, 'pid');
  mkdirSync(WORK, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!alive(ownerOf(owner))) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The pid a lock's owner wrote; 0 while it has not yet (or the lock is gone). */
function ownerOf(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/** Whether process `pid` runs (0, a lock whose owner has not written its pid yet, counts as running). */
function alive(pid: number): boolean {
  if (pid === 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The releases and the packages beside them, as data ([releases.json](./releases.json)): the
 * projects here install them, and `scripts/warm-npm-cache.mjs` fills npm's cache with them first.
 */
interface ReleasesFile {
  /** The supported Crawlee 3 releases the user projects are tried on, the newest last. */
  readonly crawlee3: readonly string[];
  /** The release below the supported range, which `attach()` must refuse by name. */
  readonly belowRange: string;
  /** The Crawlee 3 packages (`@crawlee/<name>`) a browser project adds, at the project's release. */
  readonly crawlee3BrowserPackages: readonly string[];
  /** Per Crawlee 3 release with a browser project: its `playwright` and `puppeteer`. */
  readonly browsers3: Readonly<Record<string, { readonly playwright: string; readonly puppeteer: string }>>;
  /** The Crawlee 4 packages (`@crawlee/<name>`) a CheerioCrawler project needs; they pin each other at one version. */
  readonly crawlee4Packages: readonly string[];
  /** What a Crawlee 4 browser and JSDOM project adds to them. */
  readonly crawlee4BrowserPackages: readonly string[];
  /** The browser libraries a Crawlee 4 browser project gets (its crawler packages take any version). */
  readonly browsers4: Readonly<Record<string, string>>;
  /** What every project gets to typecheck its TypeScript. */
  readonly devDependencies: Readonly<Record<string, string>>;
}
const RELEASES = JSON.parse(readFileSync(new URL('./releases.json', import.meta.url), 'utf8')) as ReleasesFile;

/** The supported Crawlee 3 releases the user projects are tried on. */
export const ALL_RELEASES: readonly string[] = RELEASES.crawlee3;
/** The release `npm test` runs the user projects on: the newest. */
export const NEWEST_RELEASE: string = ALL_RELEASES[ALL_RELEASES.length - 1]!;
/**
 * The Crawlee 3 releases a TypeScript project is typechecked against: the ends of the range. Each
 * typecheck is a `tsc` over Crawlee's declarations (20–40 s of CPU); the releases between them run
 * the ESM and CommonJS crawls.
 */
export const TYPECHECKED_RELEASES: readonly string[] = [ALL_RELEASES[0]!, NEWEST_RELEASE];

/**
 * The Crawlee 3 releases to test (the Crawlee 4 builds are tested apart, see {@link crawleeV4}):
 * the newest in `npm test`; the others in `pnpm test:compat` (HEED_COMPAT_RELEASES=all), which
 * runs after `npm test` and would only repeat it on the newest; or those a list names.
 */
export function releasesToTest(): string[] {
  const chosen = process.env['HEED_COMPAT_RELEASES'];
  if (!chosen) return [NEWEST_RELEASE];
  if (chosen === 'all') return ALL_RELEASES.filter((release) => release !== NEWEST_RELEASE);
  return chosenReleases(chosen).filter((release) => !(V4_RELEASES as readonly string[]).includes(release));
}

function chosenReleases(chosen: string): string[] {
  return chosen
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The Crawlee 4 release `pnpm test:compat` runs (HEED_COMPAT_RELEASES=all, or a list naming it).
 * The registry serves Crawlee 3 only: its packages are the tarballs built from tag v4.0.0-rc.0 that
 * the machines keep beside the checkout, in `../shared/crawlee-v4` (HEED_CRAWLEE_V4_DIR elsewhere).
 */
export const V4_RELEASE = '4.0.0-rc.0';

/**
 * Crawlee's next release: its `master` after 4.0.0-rc.0, what 4.0.0 will be built from
 * (HEED_COMPAT_RELEASES=all, or a list naming `4-next`). Its tarballs, built from one master
 * commit and versioned `4.0.0-rc.0.master.<commit>`, are kept in `../shared/crawlee-v4-next`
 * (HEED_CRAWLEE_V4_NEXT_DIR elsewhere); the version is read from their names, so a rebuild from a
 * newer commit needs no change here.
 */
export const V4_NEXT_RELEASE = '4-next';

/** The Crawlee 4 builds, in the order they run. */
export const V4_RELEASES = [V4_RELEASE, V4_NEXT_RELEASE] as const;
export type V4Release = (typeof V4_RELEASES)[number];

/** Where each Crawlee 4 build's tarballs are, and the variable that moves them. */
const V4_SOURCES: Readonly<Record<V4Release, { readonly env: string; readonly folder: string; readonly what: string }>> = {
  [V4_RELEASE]: { env: 'HEED_CRAWLEE_V4_DIR', folder: 'crawlee-v4', what: 'the tarballs built from tag v4.0.0-rc.0' },
  [V4_NEXT_RELEASE]: {
    env: 'HEED_CRAWLEE_V4_NEXT_DIR',
    folder: 'crawlee-v4-next',
    what: "the tarballs built from Crawlee's master after 4.0.0-rc.0",
  },
};

/** Whether the projects of the Crawlee 4 build `release` are asked for. */
export function testsV4(release: V4Release = V4_RELEASE): boolean {
  const chosen = process.env['HEED_COMPAT_RELEASES'];
  return chosen === 'all' || (chosen !== undefined && chosenReleases(chosen).includes(release));
}

/** The Crawlee 4 builds asked for. */
export function v4ReleasesToTest(): V4Release[] {
  return V4_RELEASES.filter((release) => testsV4(release));
}

const V4_PACKAGES = RELEASES.crawlee4Packages;
const V4_BROWSER_PACKAGES = RELEASES.crawlee4BrowserPackages;
export const V4_BROWSER_SET = RELEASES.browsers4;

/** The Crawlee 4 tarballs of one build: their files and the version they pin each other at. */
export interface CrawleeV4Source {
  readonly tarballs: readonly string[];
  /** The packages' version (`4.0.0-rc.0`, `4.0.0-rc.0.master.69a824b7`). */
  readonly version: string;
}

/**
 * The tarballs of the Crawlee 4 build `release` (with `browsers`, those of the browser crawlers
 * and JSDOMCrawler too), or why they cannot be had (the test then says so in one line and skips).
 */
export function crawleeV4(browsers = false, release: V4Release = V4_RELEASE): CrawleeV4Source | { readonly skip: string } {
  const source = V4_SOURCES[release];
  const dir = process.env[source.env] ?? join(ROOT, '..', 'shared', source.folder);
  const names = browsers ? [...V4_PACKAGES, ...V4_BROWSER_PACKAGES] : V4_PACKAGES;
  const skip = (why: string) => ({
    skip: `Crawlee ${release} not tested: ${why} (${source.what}; set ${source.env} to their folder)`,
  });
  const files = existsSync(dir) ? readdirSync(dir) : undefined;
  if (files === undefined) return skip(`no ${dir}`);
  // rc.0's files are named by its version; a master build's version is read from its core tarball.
  const version = release === V4_RELEASE ? V4_RELEASE : versionOfCore(files);
  if (version === undefined) return skip(`no crawlee-core-<version>.tgz in ${dir}`);
  const tarballs = names.map((name) => join(dir, `crawlee-${name}-${version}.tgz`));
  const missing = tarballs.filter((file) => !existsSync(file));
  if (missing.length === tarballs.length) return skip(`no ${dir}`);
  if (missing.length > 0) return skip(`${missing[0]} missing`);
  return { tarballs, version };
}

/** The version of the one `crawlee-core-<version>.tgz` among `files`, or `undefined` (none, or several builds mixed). */
function versionOfCore(files: readonly string[]): string | undefined {
  const versions = files.map((file) => /^crawlee-core-(\d+\.\d+\.\d+.*)\.tgz$/.exec(file)?.[1]).filter((v) => v !== undefined);
  return versions.length === 1 ? versions[0] : undefined;
}

/** Releases with `onSkippedRequest` (added in 3.13.8). */
export function hasOnSkippedRequest(release: string): boolean {
  const [major, minor, patch] = release.split('.').map(Number) as [number, number, number];
  return major > 3 || minor > 13 || (minor === 13 && patch >= 8);
}

export interface Output {
  stdout: string;
  stderr: string;
}

/**
 * This process's environment as a user's own shell would have it: without the `npm_package_*` and
 * `npm_lifecycle_*` variables a script runner (`pnpm test:compat`, `npm test`) sets for its
 * children. `npm_config_*` stay: a machine may point npm at its registry that way.
 */
function userShellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle)_/i.test(key)));
}

export async function sh(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 300_000,
): Promise<Output> {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd,
      env: { ...userShellEnv(), ...env },
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr };
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/**
 * Packs the four packages. `pnpm test:compat` run alone runs each package's `prepack` (a build
 * from a clean `dist`, as `pnpm publish` does); within the whole suite (`npm test`, which sets
 * HEED_WHOLE_SUITE) the `dist` built by the setup step is packed as is, because a clean rebuild
 * would pull `dist` from under the tests that run the built CLI and examples in parallel; and with
 * HEED_PACK_AS_BUILT=1 (`.ci/run`, whose fresh clone has just been built from scratch, so its `dist`
 * holds nothing stale), where the clean rebuild would cost half a minute for the same files.
 * Returns the tarball paths by package.
 */
export async function packAll(): Promise<Record<(typeof PACKAGES)[number], string>> {
  const out = join(WORK, 'packs');
  const prepack =
    process.env['HEED_COMPAT_RELEASES'] !== undefined &&
    process.env['HEED_WHOLE_SUITE'] !== '1' &&
    process.env['HEED_PACK_AS_BUILT'] !== '1';
  // (pnpm pack has no --ignore-scripts flag; the config variable does it.)
  const env: Record<string, string> = prepack ? {} : { npm_config_ignore_scripts: 'true' };
  // Packed once per vitest run (its test files are forks of one process): a second pack would
  // rebuild `dist` from clean while the first file's tests load the CLI from it.
  const run = join(out, '.vitest-run');
  const files = await exclusively('pack', async () => {
    if (existsSync(run) && readFileSync(run, 'utf8') === String(process.ppid)) return readdirSync(out);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const name of PACKAGES) await sh('pnpm', ['pack', '--pack-destination', out], join(ROOT, 'packages', name), env);
    writeFileSync(run, String(process.ppid));
    return readdirSync(out);
  });
  // pnpm names a tarball after the package: `@heed/parser` → heed-parser-0.1.0.tgz, `heed` → heed-0.1.0.tgz.
  const find = (name: (typeof PACKAGES)[number]) => {
    const prefix = `${NPM_NAMES[name].replace(/^@/, '').replace('/', '-')}-`;
    const file = files.find((f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)) && f.endsWith('.tgz'));
    if (!file) throw new Error(`pnpm pack produced no tarball for ${NPM_NAMES[name]} in ${out}`);
    return join(out, file);
  };
  return { parser: find('parser'), manager: find('manager'), crawlee: find('crawlee'), cli: find('cli') };
}

export interface Project {
  readonly dir: string;
  /** npm's output of the install (empty when the cached project was reused). */
  readonly installLog: string;
}

/** The release below the supported range that `pnpm test:compat` tries: attach() must name it. */
export const UNSUPPORTED_RELEASE = RELEASES.belowRange;

/**
 * The browser crawlers and their browser libraries a browser project gets, per Crawlee release:
 * versions the release accepts (its `@crawlee/playwright` and `@crawlee/puppeteer` take any
 * `playwright`/`puppeteer`) that drive Debian's Chromium, which the projects launch instead of a
 * downloaded browser. The releases `pnpm test:compat` runs the browser flavour on.
 */
export const BROWSER_SETS = RELEASES.browsers3;

export interface ProjectOptions {
  /** Install with `--legacy-peer-deps`. */
  readonly legacyPeerDeps?: boolean;
  /**
   * Also install `@crawlee/playwright`, `@crawlee/puppeteer` and `@crawlee/jsdom` at the release,
   * with the browser libraries of `BROWSER_SETS` (no browser downloaded). With `crawleeTarballs`:
   * the `playwright` of `V4_BROWSER_SET` (the Crawlee packages come from the tarballs).
   */
  readonly browsers?: boolean;
  /** Crawlee 4: its packages from these tarballs (instead of `@crawlee/cheerio@release` from the registry), with the v4 fixtures. */
  readonly crawleeTarballs?: readonly string[];
  /** The folder the project is kept in (default: this checkout's, under the system's temp dir). */
  readonly home?: string;
}

/** The dependencies a browser project adds for `release`. */
function browserDependencies(release: string): Record<string, string> {
  const set = BROWSER_SETS[release];
  if (!set) throw new Error(`No browser set for Crawlee ${release}: add the release to "browsers3" in test/compat/releases.json`);
  return {
    ...Object.fromEntries(RELEASES.crawlee3BrowserPackages.map((name) => [`@crawlee/${name}`, release])),
    playwright: set.playwright,
    'playwright-core': set.playwright,
    puppeteer: set.puppeteer,
  };
}

/**
 * A project with the packed packages and `@crawlee/cheerio@release` installed by `npm install`
 * (and the browser crawlers, with `browsers`).
 */
export async function project(release: string, tarballs: Tarballs, options: ProjectOptions = {}): Promise<Project> {
  const { legacyPeerDeps = false, browsers = false, crawleeTarballs, home = WORK } = options;
  const variant = `${legacyPeerDeps ? '-legacy' : ''}${browsers ? '-browsers' : ''}`;
  const fixtures = crawleeTarballs ? FIXTURES_V4 : FIXTURES;
  const crawlee: Record<string, string> = crawleeTarballs
    ? Object.fromEntries(crawleeTarballs.map((file) => [crawleePackageOf(file), `file:${file}`]))
    : { '@crawlee/cheerio': release };
  const hash = createHash('sha256');
  for (const file of [...Object.values(tarballs), ...(crawleeTarballs ?? [])].sort()) hash.update(readFileSync(file));
  for (const file of readdirSync(fixtures).sort()) hash.update(file).update(readFileSync(join(fixtures, file)));
  hash.update(release).update(variant);
  const extra = !browsers ? {} : crawleeTarballs ? { ...V4_BROWSER_SET } : browserDependencies(release);
  hash.update(JSON.stringify(extra));
  const dir = join(home, `crawlee-${release}${variant}-${hash.digest('hex').slice(0, 12)}`);
  const marker = join(dir, '.installed');
  if (existsSync(marker)) return { dir, installLog: readFileSync(marker, 'utf8') };
  // Projects of this release built from older tarballs are of no further use. Removed without
  // blocking: this process serves the loopback sites the other tests' crawlers and CLI runs fetch,
  // and a synchronous removal of a node_modules tree held them up past their timeouts.
  const prefix = `crawlee-${release}${variant}-`;
  mkdirSync(home, { recursive: true });
  for (const old of readdirSync(home).filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('-'))) {
    await rm(join(home, old), { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  cpSync(fixtures, dir, { recursive: true });
  const pkg = {
    name: 'heed-consumer',
    private: true,
    version: '1.0.0',
    description: 'A user project: Heed next to one Crawlee release.',
    dependencies: {
      ...crawlee,
      ...extra,
      // The tarballs, as a registry would serve them.
      '@heed/parser': `file:${tarballs['parser']}`,
      '@heed/manager': `file:${tarballs['manager']}`,
      '@heed/crawlee': `file:${tarballs['crawlee']}`,
      heed: `file:${tarballs['cli']}`,
    },
    devDependencies: RELEASES.devDependencies,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  // --prefer-offline: a package's metadata already in npm's cache is not asked for again. An install
  // waits on the registry far more than it computes (a fresh machine's first project: 27 CPU-s in
  // 122 s), and the projects share most of their packages; pinned releases need no fresh metadata.
  const flags = ['--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...(legacyPeerDeps ? ['--legacy-peer-deps'] : [])];
  // The crawls launch Debian's Chromium: no browser is downloaded (--ignore-scripts already skips
  // the download scripts; the variables say so to any library that looks at install or run time).
  const env = { npm_config_update_notifier: 'false', PUPPETEER_SKIP_DOWNLOAD: '1', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  const { stdout, stderr } = await sh('npm', ['install', ...flags], dir, env);
  const log = `${stdout}\n${stderr}`;
  writeFileSync(marker, log);
  return { dir, installLog: log };
}

/** The packed packages, by folder under `packages/`. */
export type Tarballs = Awaited<ReturnType<typeof packAll>>;

/**
 * How many `npm install`s run at once. An install mostly waits on the registry (a quarter of a core
 * on a fresh machine's cold cache), so three overlap their waits without taking the cores the
 * tests beside them crawl with.
 */
const INSTALLS_AT_ONCE = 3;

interface PlannedProject {
  readonly release: string;
  readonly options: ProjectOptions;
  readonly ready: Promise<Project>;
  settle(outcome: Promise<Project>): void;
}

/**
 * The projects a test file needs, installed a few at a time as soon as the packages are packed:
 * the later releases install while the earlier releases' tests run, instead of each suite's
 * `beforeAll` installing its own in turn. A suite plans its project while it is collected, in the
 * order the suites run, and awaits it in its `beforeAll`.
 */
export class ProjectInstalls {
  /**
   * The folder its projects and packed packages are kept in: this checkout's, or a folder of it
   * named `folder`, for a test file whose projects must not be cleared by another file's (each
   * clears the projects of a release built from older tarballs than its own packing).
   */
  readonly home: string;

  constructor(folder?: string) {
    this.home = folder === undefined ? WORK : join(WORK, folder);
  }

  readonly #planned: PlannedProject[] = [];
  readonly #queue: PlannedProject[] = [];
  readonly #running = new Set<Promise<void>>();
  #tarballs: Promise<Tarballs> | undefined;

  /**
   * Queues the project of `release`; the function returned gives it once installed. `when: false`
   * queues nothing: the body of a skipped suite runs too (to list its tests), and must not install.
   */
  plan(release: string, options: ProjectOptions = {}, { when = true } = {}): () => Promise<Project> {
    if (!when) return () => Promise.reject(new Error(`the project of Crawlee ${release} was not planned: its suite is skipped`));
    let settle!: (outcome: Promise<Project>) => void;
    const ready = new Promise<Project>((resolve) => (settle = resolve));
    // Its suite awaits it later; a failed install is reported there, not as an unhandled rejection.
    ready.catch(() => {});
    const planned: PlannedProject = { release, options, ready, settle };
    this.#planned.push(planned);
    this.#queue.push(planned);
    this.#pump();
    return () => {
      // A suite that waits for a project not begun yet (a run filtered with -t) has it installed next.
      const at = this.#queue.indexOf(planned);
      if (at > 0) this.#queue.unshift(...this.#queue.splice(at, 1));
      return ready;
    };
  }

  /** Begins the installs once `tarballs` are packed; if packing fails, every planned project fails with its error. */
  start(tarballs: Promise<Tarballs>): Promise<Tarballs> {
    this.#tarballs = tarballs;
    this.#pump();
    return tarballs;
  }

  /** Resolves once every planned install has ended: for a test whose timing must not share the machine with installs. */
  async idle(): Promise<void> {
    await Promise.allSettled(this.#planned.map((planned) => planned.ready));
  }

  /** Drops the installs not begun and waits for those running, so that no npm outlives the test file. */
  async close(): Promise<void> {
    for (const planned of this.#queue.splice(0)) {
      planned.settle(Promise.reject(new Error(`the project of Crawlee ${planned.release} was not installed: the file ended first`)));
    }
    await Promise.all(this.#running);
  }

  #pump(): void {
    const tarballs = this.#tarballs;
    if (tarballs === undefined) return;
    while (this.#running.size < INSTALLS_AT_ONCE && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      const installed = tarballs.then((packed) => project(next.release, packed, { home: this.home, ...next.options }));
      next.settle(installed);
      const slot: Promise<void> = installed
        .then(
          () => {},
          () => {},
        )
        .finally(() => {
          this.#running.delete(slot);
          this.#pump();
        });
      this.#running.add(slot);
    }
  }
}

/** `@crawlee/core` of `…/crawlee-core-4.0.0-rc.0.tgz`. */
function crawleePackageOf(tarball: string): string {
  const match = /^crawlee-(.+?)-\d+\.\d+\.\d+.*\.tgz$/.exec(basename(tarball));
  if (!match) throw new Error(`${tarball} is not named like a packed Crawlee package (crawlee-<name>-<version>.tgz)`);
  return `@crawlee/${match[1]}`;
}

/** The `npm warn`/`npm error` lines of an install log that concern Heed's packages or peer resolution. */
export function heedWarnings(log: string): string[] {
  return (
    log
      .split('\n')
      .filter((line) => /^npm (warn|error|ERR)/i.test(line))
      // npm's notes on its own configuration (e.g. a key set in ~/.npmrc) are not about packages.
      .filter((line) => !/Unknown (env|user|project|global|builtin|cli) config/i.test(line))
      .filter((line) => /@heed\/|ERESOLVE|peer|EBADENGINE/i.test(line))
      // Crawlee 4's packages declare node >=22 and run on 20.19 (the machines' Node): their engine
      // notes are not about Heed; one naming a Heed package is kept.
      .filter(
        (line) =>
          !/EBADENGINE/.test(line) ||
          !/(Unsupported engine \{|required:|current:|^npm warn EBADENGINE \}$|package: '@crawlee\/)/.test(line),
      )
  );
}

/** Every version of `name` installed in the project (two means two copies). */
export async function installedVersions(dir: string, name: string): Promise<string[]> {
  const { stdout } = await sh('npm', ['ls', name, '--all', '--json'], dir).catch((error: Error) => ({
    stdout: /\{[\s\S]*\}/.exec(error.message)?.[0] ?? '{}',
    stderr: '',
  }));
  const versions = new Set<string>();
  const walk = (node: { dependencies?: Record<string, { version?: string; dependencies?: unknown }> }) => {
    for (const [dep, child] of Object.entries(node.dependencies ?? {})) {
      if (dep === name && child.version) versions.add(child.version);
      walk(child as never);
    }
  };
  walk(JSON.parse(stdout) as never);
  return [...versions].sort();
}
