/** The `purposes` and `unknownUsage` options, and what a response's headers and meta tags state (pure). */
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError, RobotsPlugin } from '@heed/crawlee';
import { pageUsageEvidence } from '../../packages/crawlee/src/page-signals/usage.js';
import { crawleeBasic, freshConfig } from './site.js';
import { idleManager } from '../support/idle-manager.js';

const UA = 'HeedBot/1.0';
const crawler = () => new crawleeBasic.BasicCrawler({ requestHandler: async () => {} }, freshConfig());

describe('options: purposes, unknownUsage', () => {
  it.each([
    [{ purposes: 'train-ai' }, /purposes.*expected an array of usage categories, e\.g\. purposes: \['train-ai'\]/],
    [{ purposes: ['training'] }, /"training" is not a usage category/],
    [{ purposes: ['train_ai'] }, /did you mean 'train-ai'\?/],
    [{ purposes: [1] }, /1 is not a usage category/],
    [{ unknownUsage: 'deny' }, /unknownUsage.*expected 'allow' or 'disallow'/],
  ])('refuses %j', async (options, message) => {
    const attach = RobotsPlugin.attach(crawler(), { userAgent: UA, manager: idleManager, ...(options as object) });
    await expect(attach).rejects.toThrow(InvalidOptionsError);
    await expect(RobotsPlugin.attach(crawler(), { userAgent: UA, manager: idleManager, ...(options as object) })).rejects.toThrow(message);
  });

  it('needs a manager with usage() only when purposes are declared', async () => {
    const { usage: _usage, ...withoutUsage } = idleManager as typeof idleManager & { usage?: unknown };
    await expect(RobotsPlugin.attach(crawler(), { userAgent: UA, manager: withoutUsage, purposes: ['search'] })).rejects.toThrow(
      /has no usage\(\) method/,
    );
    const plugin = await RobotsPlugin.attach(crawler(), { userAgent: UA, manager: withoutUsage });
    expect(plugin.options.purposes).toEqual([]);
    expect(plugin.options.unknownUsage).toBe('allow');
  });
});

describe('pageUsageEvidence', () => {
  const categories = (e: ReturnType<typeof pageUsageEvidence>) => e.map((x) => `${x.category}:${x.preference}:${x.signal}:${x.source}`);

  it('reads Content-Usage and Content-Signal headers as dictionaries, several values as one field', () => {
    expect(categories(pageUsageEvidence('HeedBot', { 'content-usage': ['train-ai=n', 'search=y'] }, []))).toEqual([
      'train-ai:disallow:content-usage:header',
      'search:allow:content-usage:header',
    ]);
    expect(categories(pageUsageEvidence('HeedBot', { 'content-signal': 'ai-train=no, ai-input=yes' }, []))).toEqual([
      'train-ai:disallow:content-signal:header',
      'ai-input:allow:content-signal:header',
    ]);
    // An upper-case key fails the whole dictionary: nothing stated.
    expect(pageUsageEvidence('HeedBot', { 'content-usage': 'Train-AI=n' }, [])).toEqual([]);
  });

  it('reads tdm-reservation (header and meta) and noai (X-Robots-Tag and meta, generic or for the token only)', () => {
    expect(categories(pageUsageEvidence('HeedBot', { 'tdm-reservation': '1' }, []))).toEqual([
      'train-ai:disallow:tdm-reservation:header',
      'ai-input:disallow:tdm-reservation:header',
    ]);
    expect(categories(pageUsageEvidence('HeedBot', {}, [{ name: 'tdm-reservation', content: '0' }]))).toEqual([
      'train-ai:allow:tdm-reservation:meta',
      'ai-input:allow:tdm-reservation:meta',
    ]);
    expect(categories(pageUsageEvidence('HeedBot', { 'x-robots-tag': 'heedbot: noai' }, []))).toEqual([
      'train-ai:disallow:noai:header',
      'ai-input:disallow:noai:header',
    ]);
    expect(pageUsageEvidence('HeedBot', { 'x-robots-tag': 'otherbot: noai' }, [])).toEqual([]);
    expect(categories(pageUsageEvidence('HeedBot', {}, [{ name: 'robots', content: 'noindex, noai' }]))).toEqual([
      'train-ai:disallow:noai:meta',
      'ai-input:disallow:noai:meta',
    ]);
    expect(pageUsageEvidence('HeedBot', {}, [{ name: 'OtherBot', content: 'noai' }])).toEqual([]);
  });

  it('applies noimageai to image responses only', () => {
    expect(pageUsageEvidence('HeedBot', { 'x-robots-tag': 'noimageai', 'content-type': 'text/html' }, [])).toEqual([]);
    expect(categories(pageUsageEvidence('HeedBot', { 'x-robots-tag': 'noimageai', 'content-type': 'image/png' }, []))).toEqual([
      'train-ai:disallow:noimageai:header',
      'ai-input:disallow:noimageai:header',
    ]);
  });
});
