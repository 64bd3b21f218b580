/**
 * The order test files start in: the longest first, so that the three forks end together instead
 * of one running a minute-long file alone at the end. Vitest orders a run by the durations it
 * kept from the last one, but a fresh clone (CI) has none, and then it orders by file size, which
 * says little: the README's quick start, a small file, is a minute of installing and building.
 *
 * The weights are the files' seconds in a quiet run of `npm test` on 2 cores (docs/development.md,
 * "What the tests cost"), but for the quick start's: started beside the two longest files, which
 * build and install as it does, it took three times as long, so it comes a little later. A file
 * not listed comes after them, in vitest's own order. A wrong weight only costs time, never a
 * result.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Readonly<Record<string, number>> = {
  // The contract suite on three other releases, one after another: with HEED_COMPAT_RELEASES=all
  // (CI) the longest file by far; without it, it skips at once.
  'test/compat/contract.test.ts': 200,
  'test/compat/consumer.test.ts': 150,
  'test/contract/contract.test.ts': 150,
  'test/crawlee/browser-doors.test.ts': 58,
  'test/crawlee/fleet-pauses.test.ts': 55,
  'test/quickstart/quickstart.test.ts': 40,
  'test/parser/matcher.test.ts': 38,
  'test/crawlee/identify-pages.test.ts': 37,
  'test/faults/store-faults.test.ts': 27,
  'test/crawlee/playwright.test.ts': 24,
  'test/crawlee/sitemaps-hostile.test.ts': 23,
  'test/examples/fleet-redis.test.ts': 23,
  'test/crawlee/fleet-politeness.test.ts': 23,
  'test/crawlee/page-signals-crawl.test.ts': 22,
  'test/crawlee/hop-delay.test.ts': 19,
  'test/crawlee/sitemaps-scale.test.ts': 19,
  'test/parser/corpus.test.ts': 18,
  'test/examples/playwright.test.ts': 16,
  'test/examples/shared-cache.test.ts': 16,
};

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    const weightOf = (file: TestSpecification) => {
      const path = file.moduleId.replaceAll('\\', '/');
      const listed = Object.keys(SECONDS).find((name) => path.endsWith(`/${name}`));
      return listed === undefined ? 0 : SECONDS[listed]!;
    };
    // A stable sort: the files without a weight keep vitest's order after the listed ones.
    return [...rest].sort((a, b) => weightOf(b) - weightOf(a));
  }
}
