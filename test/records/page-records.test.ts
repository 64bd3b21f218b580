/**
 * When a page's record is written: the check before the fetch lets a page go before Crawlee picks
 * its session and proxy, so its `before-fetch` record waits for the page to leave and then names
 * them. A page that never leaves (the run ends first), and one checked again after a retry, are
 * still written: no record is lost for waiting.
 */
import { describe, expect, it } from 'vitest';
import { RECORDS_OPTIONS } from '../../packages/crawlee/src/records/records-options.js';
import { CrawlRecorder } from '../../packages/crawlee/src/records/recorder.js';
import type { CrawlRecord } from '../../packages/crawlee/src/records/crawl-record.js';
import type { RobotsManagerLike } from '../../packages/crawlee/src/manager-contract.js';

function recorder() {
  const records: CrawlRecord[] = [];
  const options = RECORDS_OPTIONS.resolve({ onRecord: (record: CrawlRecord) => void records.push(record) });
  const context = { productToken: 'HeedBot', purposes: [], pageUserAgent: 'HeedBot/1.0', userAgent: 'HeedBot/1.0' };
  const rec = new CrawlRecorder(
    options,
    context,
    {} as RobotsManagerLike,
    () => {},
    undefined,
    async () => {
      throw new Error('no dataset');
    },
  );
  return { rec, paths: () => records.map((r) => `${new URL(r.url).pathname} ${r.proxy?.url ?? '-'} ${r.proxy?.session ?? '-'}`) };
}

describe('the record of a page let go before its fetch', () => {
  it('is written when the page leaves, naming the proxy without its credentials, and the session', () => {
    const { rec, paths } = recorder();
    const page = {};
    rec.passed('before-fetch', 'https://a.example/one', undefined, undefined, page);
    expect(paths()).toEqual([]);
    rec.pageLeaves(page, { url: 'http://user:secret@proxy.example:8000', sessionId: 'session_abc', password: 'secret' });
    rec.pageLeaves(page, { url: 'http://proxy.example:8000' });
    expect(paths()).toEqual(['/one http://proxy.example:8000/ session_abc']);
  });

  it('without a proxy, is written without one', () => {
    const { rec, paths } = recorder();
    const page = {};
    rec.passed('before-fetch', 'https://a.example/one', undefined, undefined, page);
    rec.pageLeaves(page, undefined);
    expect(paths()).toEqual(['/one - -']);
  });

  it('is written at the end of the run when the page never left, and each check of a retried page is', async () => {
    const { rec, paths } = recorder();
    const retried = {};
    rec.passed('before-fetch', 'https://a.example/retried', undefined, undefined, retried);
    rec.passed('before-fetch', 'https://a.example/retried', undefined, undefined, retried);
    rec.passed('before-fetch', 'https://a.example/never-left', undefined, undefined, {});
    expect(paths()).toEqual(['/retried - -']);
    rec.pageLeaves(retried, { url: 'http://proxy.example:8000', sessionId: 7 });
    await rec.endOfRun();
    expect(paths()).toEqual(['/retried - -', '/retried http://proxy.example:8000/ 7', '/never-left - -']);
  });

  it('other doors are written at once', () => {
    const { rec, paths } = recorder();
    rec.passed('redirect', 'https://a.example/hop', undefined, 'https://a.example/');
    rec.passed('before-fetch', 'https://a.example/no-request', undefined);
    expect(paths()).toEqual(['/hop - -', '/no-request - -']);
  });
});
