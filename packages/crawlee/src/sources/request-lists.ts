/**
 * Crawlee's request lists, which load their sources themselves before `attach()` can see them. A
 * `RequestList` downloads its `requestsFromUrl` files in `RequestList.open()`; a
 * `SitemapRequestList` fetches its sitemaps, and every nested sitemap an index names, in the
 * background from `SitemapRequestList.open()` on, with Crawlee's own client under a browser
 * user-agent. Heed checks every URL such a list hands the crawler, but not these files: a crawler
 * given a `SitemapRequestList` is told so at `attach()`, with the Heed way to read them
 * (`RobotsPlugin.addSitemaps()`).
 * (A `RequestList` keeps nothing that says its sources came from a URL, so it cannot be told.)
 */

/** The line `attach()` logs for `crawler`'s request list, or `undefined` when there is nothing to say. */
export function requestListWarning(crawler: object): string | undefined {
  const list = (crawler as { requestList?: unknown }).requestList;
  // SitemapRequestList's own state (3.13 to 3.18, 4.0.0-rc.0): no other list has it.
  if (typeof list !== 'object' || list === null || !('sitemapParsingProgress' in list)) return undefined;
  return (
    "RobotsPlugin: this crawler's SitemapRequestList fetches its sitemap files, and the nested sitemaps an index names, " +
    'itself, under a browser user-agent and without asking robots.txt; the URLs they list are checked, the files are not. ' +
    'For the files to be checked too, name the sitemaps to robots.addSitemaps([...]) in place of a SitemapRequestList, and give ' +
    'lists of URLs to crawler.run([{ requestsFromUrl }]): Heed reads both itself.'
  );
}
