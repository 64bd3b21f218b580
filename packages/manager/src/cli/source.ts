/**
 * Where a robots.txt comes from for `explain` and `lint`: a file, or a URL fetched exactly as the
 * manager fetches (same caps, redirects and user-agent header) and judged by the same status
 * policy, so `heed explain https://...` and a crawler agree on what a 404 or a 503 means.
 */
import { readFile } from 'node:fs/promises';
import { fetchRobotsTxt } from '../fetch.js';
import { originOf } from '../origin.js';
import { decideRecord, effectivePolicy, type EffectivePolicy } from '../policy.js';
import type { RobotsRecord } from '../record.js';
import { UsageError } from './args.js';

/** The user-agent header when the command line names none (lint fetches). */
export const DEFAULT_USER_AGENT = 'heed-cli';

export interface LoadedRobots {
  /** The file path or the robots.txt URL, as shown to the user. */
  readonly name: string;
  /** The body read, when there was one (a file, or any HTTP response). */
  readonly body?: Uint8Array;
  /** For URLs: the record the status policy made of the fetch, and the policy in force. */
  readonly record?: RobotsRecord;
  readonly policy: EffectivePolicy;
}

/** Whether a command-line operand names a URL rather than a file. */
export function isUrl(operand: string): boolean {
  return /^https?:\/\//i.test(operand);
}

/**
 * The robots.txt URL an operand means: a URL whose path ends in `.txt` as given (a robots.txt
 * served for testing at another path works too), any other URL of a site that site's `/robots.txt`.
 */
export function robotsUrlFor(operand: string): string {
  const url = new URL(operand);
  if (url.pathname.toLowerCase().endsWith('.txt')) return url.href;
  return `${url.origin}/robots.txt`;
}

export async function loadRobots(operand: string, userAgent: string, timeoutMs: number): Promise<LoadedRobots> {
  if (!isUrl(operand)) {
    let body: Buffer;
    try {
      body = await readFile(operand);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
      throw new UsageError(`cannot read the robots.txt file "${operand}": ${why}.`);
    }
    const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return { name: operand, body: bytes, policy: { kind: 'rules', reason: 'rules', body: '' } };
  }
  let url: string;
  try {
    url = robotsUrlFor(operand);
  } catch {
    throw new UsageError(`"${operand}" is not a valid URL.`);
  }
  const origin = originOf(url) ?? url;
  const outcome = await fetchRobotsTxt(url, { userAgent, timeoutMs, connectTimeoutMs: Math.min(10_000, timeoutMs) });
  const now = Date.now();
  const record = decideRecord(origin, outcome, undefined, now);
  const loaded = { name: url, record, policy: effectivePolicy(record, now) };
  return outcome.kind === 'response' ? { ...loaded, body: outcome.body } : loaded;
}

/** One sentence on why a record that is not `ok` allows or disallows everything. */
export function describeRecord(record: Pick<RobotsRecord, 'status' | 'httpStatus' | 'problem'>): string {
  const answer = record.httpStatus !== undefined ? `answered HTTP ${record.httpStatus}` : `could not be fetched (${fetchProblem(record.problem)})`;
  const detail = record.problem !== undefined && record.httpStatus !== undefined && !record.problem.code.startsWith('http-') ? ` (${record.problem.message})` : '';
  switch (record.status) {
    case 'ok':
      return `robots.txt ${answer}: its rules apply.`;
    case 'unavailable':
      return `robots.txt ${answer}${detail}: it is unavailable, so crawlers may fetch everything (RFC 9309 §2.3.1.3).`;
    case 'unreachable':
      return `robots.txt ${answer}${detail}: it is unreachable, so crawlers must fetch nothing until it answers again (RFC 9309 §2.3.1.4).`;
  }
}

/** `refused: connect ECONNREFUSED 127.0.0.1:1` from a RobotsFetchError message, without the URL already shown. */
function fetchProblem(problem: RobotsRecord['problem']): string {
  if (problem === undefined) return 'network error';
  const detail = problem.message.replace(/^Fetching \S+ failed \([^)]*\): /, '');
  return detail === problem.code ? detail : `${problem.code}: ${detail}`;
}
