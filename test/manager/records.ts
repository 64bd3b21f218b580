/** A stored record of a 200 robots.txt, as the manager would have decided it: the stores' tests' unit of data. */
import type { RobotsRecord } from '@heed/manager';
import { decideRecord } from '@heed/manager/internal';

export function goodRecord(origin: string, body: string, now = Date.now()): RobotsRecord {
  const outcome = {
    kind: 'response',
    status: 200,
    headers: {},
    finalUrl: `${origin}/robots.txt`,
    body: Buffer.from(body),
    bodyCapped: false,
    url: `${origin}/robots.txt`,
    redirects: [],
    startedAt: now,
    durationMs: 1,
  } as const;
  return decideRecord(origin, outcome, undefined, now);
}
