/**
 * The plugin's per-origin bounds at full scale (`pnpm test:stress`): test/crawlee/bounds.test.ts with
 * 20,000 origins and 100,000 URLs (the scheduler's bound at 1,000 idle origins, 20,000 origins
 * through it), and test/crawlee/bounds-crawl.test.ts crawling 2,000 origins. The same files as in
 * `vitest run`, where they run at CI scale; `HEED_BOUNDS_SCALE` tells them which, so the tests are
 * written once.
 */
process.env['HEED_BOUNDS_SCALE'] = 'full';
await import('../crawlee/bounds.test.js');
await import('../crawlee/bounds-crawl.test.js');
