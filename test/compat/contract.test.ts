/**
 * The contract suite (test/contract: every door × crawler kind, each cell a real crawler against
 * the recording site) on other Crawlee releases: 3.13.0, the oldest supported, and the Crawlee 4
 * builds of `V4_RELEASES` (4.0.0-rc.0 and `4-next`). Per release, the packed packages are installed
 * with plain npm beside the release's crawler packages and the browser libraries (the browser
 * projects of browsers.ts, kept in a folder of this file's own), then `vitest run` runs the suite
 * with test/compat/contract.config.ts: `@heed/*` resolve to the project's packages, the crawlers are
 * the project's (kinds.ts, `crawleeIn`). Its pass or fail is this test's; which cells are gaps on
 * which release is in test/contract/gaps.ts.
 *
 * What runs where: `pnpm test:compat` (HEED_COMPAT_RELEASES=all), or a list naming the releases;
 * `npm test` runs the suite on 3.18 itself (test/contract) and none of these. A Crawlee 4 build
 * whose tarballs are absent is skipped, saying so.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optIn } from '../support/requirements.js';
import type { Major } from '../contract/kinds.js';
import { crawleeV4, packAll, ProjectInstalls, sh, testsV4, V4_RELEASES, type Project } from './consumer.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW = 900_000;
/** The Crawlee 3 release it runs on besides the 3.18 of `npm test`: the oldest supported, with a browser set in consumer.ts. */
const V3_RELEASE = '3.13.0';

function testsV3(): boolean {
  const chosen = process.env['HEED_COMPAT_RELEASES'];
  return chosen === 'all' || (chosen?.split(',').some((release) => release.trim() === V3_RELEASE) ?? false);
}

const installs = new ProjectInstalls('contract');
const asked =
  testsV3() ||
  V4_RELEASES.some((release) => testsV4(release)) ||
  optIn('HEED_COMPAT_RELEASES', 'all', 'test/compat/contract.test.ts, the contract suite on other Crawlee releases', 'npm run test:compat');

/** The releases asked for: how each is installed, or why it cannot be. */
const RELEASES = [
  ...(testsV3()
    ? [{ release: V3_RELEASE, name: V3_RELEASE, major: 3 as Major, plan: () => installs.plan(V3_RELEASE, { browsers: true }) }]
    : []),
  ...V4_RELEASES.filter((release) => testsV4(release)).map((release) => {
    const source = crawleeV4(true, release);
    if ('skip' in source) return { release, name: release, skip: source.skip };
    const name = source.version === release ? release : `${release} (${source.version})`;
    return {
      release,
      name,
      major: 4 as Major,
      plan: () => installs.plan(release, { crawleeTarballs: source.tarballs, browsers: true }),
    };
  }),
];

/** What vitest's JSON reporter says of each test. */
interface Report {
  testResults: { assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[];
}

describe.skipIf(!asked)('the contract suite on other Crawlee releases', () => {
  beforeAll(() => {
    void installs.start(packAll());
  });

  afterAll(async () => {
    await installs.close();
  });

  for (const entry of RELEASES) {
    if ('skip' in entry) {
      console.log(`compat: ${entry.skip}`);
      it.skip(entry.skip, () => {});
      continue;
    }
    const { release, name, major } = entry;
    const install = entry.plan();

    it(
      `Crawlee ${name}: every cell holds or is its release's gap (vitest run test/contract in a project with the packed packages)`,
      async () => {
        const project: Project = await install();
        const report = join(project.dir, 'contract-report.json');
        rmSync(report, { force: true });
        const started = Date.now();
        const run = await sh(
          process.execPath,
          [
            join(ROOT, 'node_modules/vitest/vitest.mjs'),
            'run',
            '--config',
            'test/compat/contract.config.ts',
            '--reporter=default',
            '--reporter=json',
            `--outputFile.json=${report}`,
          ],
          ROOT,
          {
            HEED_CONTRACT_CRAWLEE: JSON.stringify({ dir: project.dir, release, major }),
            CRAWLEE_STORAGE_DIR: join(project.dir, 'storage'),
          },
          SLOW,
        ).catch((error: Error) => error);
        // No report: the run ended before its tests (a project that does not load); its output says why.
        if (!existsSync(report)) throw run instanceof Error ? run : new Error(`vitest wrote no ${report}`);
        const results = (JSON.parse(readFileSync(report, 'utf8')) as Report).testResults.flatMap((file) => file.assertionResults);
        const seconds = Math.round((Date.now() - started) / 1000);
        console.log(
          `compat: the contract suite on Crawlee ${name}, ${seconds} s:\n${results.map((r) => `  ${r.status.padEnd(7)} ${r.fullName}`).join('\n')}`,
        );
        // Why each failed cell failed, here: the run's own output is not shown.
        for (const failed of results.filter((r) => r.status === 'failed')) {
          console.log(`compat: ${failed.fullName} failed:\n${(failed.failureMessages ?? []).join('\n').slice(0, 2000)}`);
        }
        expect(results.filter((r) => r.status === 'failed').map((r) => r.fullName)).toEqual([]);
        // No test passed and none failed: the suite did not load; the end of its output says why.
        expect(
          results.filter((r) => r.status === 'passed').length,
          `no cell ran: ${run instanceof Error ? run.message.slice(-4000) : 'the run passed with no tests'}`,
        ).toBeGreaterThan(0);
        // Every test passed, yet the run failed (an error outside them): the end of its output says which.
        expect(run instanceof Error ? run.message.slice(-4000) : 'passed').toBe('passed');
      },
      SLOW,
    );
  }
});
