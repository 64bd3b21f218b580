/**
 * Records for the tests: a stored 200 as the manager would have decided it (the stores' tests' unit
 * of data), and typed access to the fields only some statuses have. A record is a union keyed on
 * `status`; a test that reads the body or the problem first checks the status it expects, so a wrong
 * status fails as such instead of as a missing field.
 */
import { expect } from 'vitest';
import type { OkRecord, RecordProblem, RobotsRecord, RobotsRecordStatus } from '@heed/manager';
import { decideRecord } from '../../packages/manager/src/policy.js';
import { okFetchOutcome } from '../support/records.mjs';

/** The record of `status` among the record types. */
export type RecordOf<S extends RobotsRecordStatus> = Extract<RobotsRecord, { status: S }>;

export function goodRecord(origin: string, body: string | Uint8Array, now = Date.now()): OkRecord {
  const outcome = okFetchOutcome(origin, typeof body === 'string' ? Buffer.from(body) : body, now);
  return withStatus(decideRecord(origin, outcome, undefined, now), 'ok');
}

/** `record`, asserted to be of `status` (the test fails here otherwise), typed as that record. */
export function withStatus<S extends RobotsRecordStatus>(record: RobotsRecord | undefined, status: S): RecordOf<S> {
  expect(record?.status).toBe(status);
  return record as RecordOf<S>;
}

/** The body of an `ok` record as bytes; the test fails unless `record` is `ok`. */
export function bodyOf(record: RobotsRecord | undefined): Buffer {
  return Buffer.from(withStatus(record, 'ok').body, 'base64');
}

/** Why a record is `unavailable` or `unreachable`; `undefined` for `ok`. */
export function problemOf(record: RobotsRecord | undefined): RecordProblem | undefined {
  return record === undefined || record.status === 'ok' ? undefined : record.problem;
}

/** Whether the body of an `ok` record was cut at `maxBytes` (false for other statuses). */
export function bodyCapped(record: RobotsRecord | undefined): boolean {
  return record?.status === 'ok' && record.bodyCapped === true;
}
