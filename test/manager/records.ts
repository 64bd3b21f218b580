/** A stored record of a 200 robots.txt, as the manager would have decided it: the stores' tests' unit of data. */
import type { RobotsRecord } from '@heed/manager';
import { decideRecord } from '../../packages/manager/src/policy.js';
import { okFetchOutcome } from '../support/records.mjs';

export function goodRecord(origin: string, body: string | Uint8Array, now = Date.now()): RobotsRecord {
  return decideRecord(origin, okFetchOutcome(origin, typeof body === 'string' ? Buffer.from(body) : body, now), undefined, now);
}
