/**
 * A line of a records file, checked: the fields an audit relies on, with their types, or what is
 * wrong with it. A records file is evidence someone may have edited; nothing unchecked is judged.
 */
import type { ProductTokens } from '@heed/parser';

/** The fields of a crawl record (`CrawlRecord` of @heed/crawlee) an audit reads. */
export interface AuditedRecord {
  readonly url: string;
  readonly origin: string;
  readonly stage: string;
  readonly allowed: boolean;
  readonly reason: string;
  readonly snapshot?: string;
  readonly productToken: ProductTokens;
}

const SNAPSHOT_ID = /^sha256:[0-9a-f]{64}$/;
/** Longest product token list and token read. */
const MAX_TOKENS = 64;
const MAX_TOKEN_LENGTH = 512;

/** The record a line holds, or the problem that makes it malformed. */
export function readRecord(text: string): AuditedRecord | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not a JSON object' };
  const r = value as Record<string, unknown>;
  for (const field of ['url', 'origin', 'stage', 'reason'] as const) {
    if (typeof r[field] !== 'string') return { problem: `"${field}" is missing or not a string` };
  }
  if (typeof r.allowed !== 'boolean') return { problem: '"allowed" is missing or not true/false' };
  if (r.snapshot !== undefined && (typeof r.snapshot !== 'string' || !SNAPSHOT_ID.test(r.snapshot))) {
    return { problem: '"snapshot" is not a snapshot id (sha256: and 64 hex digits)' };
  }
  const productToken = r.productToken;
  const tokenOk = (t: unknown) => typeof t === 'string' && t.length > 0 && t.length <= MAX_TOKEN_LENGTH;
  if (!(
    tokenOk(productToken) ||
    (Array.isArray(productToken) && productToken.length > 0 && productToken.length <= MAX_TOKENS && productToken.every(tokenOk))
  )) {
    return { problem: '"productToken" is missing, or not a token or a list of tokens' };
  }
  return {
    url: r.url as string,
    origin: r.origin as string,
    stage: r.stage as string,
    allowed: r.allowed,
    reason: r.reason as string,
    ...(r.snapshot === undefined ? {} : { snapshot: r.snapshot }),
    productToken: productToken as ProductTokens,
  };
}
