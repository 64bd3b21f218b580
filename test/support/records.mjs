/**
 * What the manager's fetch returns for a robots.txt answered 200 with `body`: pass it to the
 * manager's `decideRecord(origin, outcome, undefined, now)` for the record a store would hold.
 * Plain JavaScript so that the benchmarks (run by node, from `dist`) and the tests (run by vitest,
 * from `src`) build records the same way.
 */
export function okFetchOutcome(origin, body, now = Date.now()) {
  const url = `${origin}/robots.txt`;
  return {
    kind: 'response',
    status: 200,
    headers: {},
    finalUrl: url,
    body,
    bodyCapped: false,
    url,
    redirects: [],
    startedAt: now,
    durationMs: 1,
  };
}
