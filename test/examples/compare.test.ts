import { expect, it } from 'vitest';
import { compareWithCrawlee, comparisonTable } from '../../examples/demo-crawl/src/index.js';

it("measures Heed and Crawlee's respectRobotsTxtFile on the same demo site; Heed fetches nothing disallowed and misses nothing allowed", async () => {
  const rows = await compareWithCrawlee();
  const heed = rows.find((row) => row.crawler === 'heed');
  const crawlee = rows.find((row) => row.crawler === 'crawlee-respectRobotsTxtFile');
  expect(heed).toMatchObject({
    pagesCrawled: heed?.allowedPages,
    disallowedUrlsFetched: [],
    allowedPagesMissed: [],
    sitemapOnlyPagesCrawled: heed?.sitemapOnlyPages,
    robotsTxtRequests: 5,
    failedRequests: 0,
  });
  expect(heed?.robotsTxtUserAgents.every((agent) => agent.startsWith('HeedDemoBot/'))).toBe(true);
  // Crawlee's numbers are measured, not asserted: they change with Crawlee. The table renders both.
  expect(crawlee?.pagesCrawled).toBeGreaterThan(0);
  const table = comparisonTable(rows);
  expect(table[0]).toContain('Heed');
  expect(table).toHaveLength(9);
}, 60_000);
