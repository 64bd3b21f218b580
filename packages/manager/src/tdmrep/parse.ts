/**
 * `/.well-known/tdmrep.json` (W3C TDM Reservation Protocol, community group report): a JSON array
 * of rules `{ "location": "/path/*", "tdm-reservation": 0 | 1, "tdm-policy": "https://…" }`.
 *
 * The body is hostile until bounded: at most {@link MAX_TDMREP_BYTES} bytes are read (more: the
 * file is refused, no rule is guessed from half of it), at most {@link MAX_TDMREP_RULES} rules are
 * kept, and strings are cut. Nothing here throws for any body: what is wrong is reported in
 * `problems`, and a rule that cannot be read is skipped. Two readings beyond the letter of the
 * report, both in the direction of the publisher's evident intent:
 * - a top-level object with `tdm-reservation` (seen in the wild) is read as one rule for `/`;
 * - a `tdm-reservation` that is neither 0 nor 1 is a protocol error: the rule still matches (it
 *   is where the publisher put it in the order) but its reservation is unset, as the report says.
 */

/** Largest tdmrep.json read: real files are a few hundred bytes. */
export const MAX_TDMREP_BYTES = 64 * 1024;
/** Rules kept per file. */
export const MAX_TDMREP_RULES = 1_000;
/** Longest `location` and `tdm-policy` kept (a URL's practical limit). */
const MAX_STRING = 2_048;

/** One rule of a tdmrep.json file. */
export interface TdmRepRule {
  /** 0-based position in the array: the first matching rule decides. */
  readonly index: number;
  /** The path pattern (robots.txt syntax: `*` any run, a trailing `$` anchors). */
  readonly location: string;
  /** 1: TDM rights reserved; 0: not reserved; undefined: unset (absent or a protocol error). */
  readonly reservation: 0 | 1 | undefined;
  /** Where the rights holder's TDM policy is, when given as a string. */
  readonly policy?: string;
}

export interface TdmRepFile {
  readonly rules: readonly TdmRepRule[];
  /** What could not be read, in order: for logs and `heed` commands. Empty for a clean file. */
  readonly problems: readonly string[];
}

/** Parses a tdmrep.json body (bytes as served, or text). Never throws. */
export function parseTdmRep(body: string | Uint8Array): TdmRepFile {
  const problems: string[] = [];
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (size > MAX_TDMREP_BYTES) {
    return { rules: [], problems: [`the file is ${size} bytes, more than the ${MAX_TDMREP_BYTES} read; no rule is read from it`] };
  }
  const text = (typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body)).replace(/^\uFEFF/, '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { rules: [], problems: [`not JSON (${(error as Error).message})`] };
  }
  let entries: unknown[];
  if (Array.isArray(json)) entries = json;
  else if (isObject(json) && 'tdm-reservation' in json) {
    problems.push('a single object instead of an array of rules: read as one rule for "/"');
    entries = [{ location: '/', ...json }];
  } else {
    return { rules: [], problems: ['not an array of rules'] };
  }
  if (entries.length > MAX_TDMREP_RULES) {
    problems.push(`${entries.length} rules; only the first ${MAX_TDMREP_RULES} are read`);
    entries = entries.slice(0, MAX_TDMREP_RULES);
  }
  const rules: TdmRepRule[] = [];
  entries.forEach((entry, index) => {
    const rule = readRule(entry, index, problems);
    if (rule !== undefined) rules.push(rule);
  });
  return { rules, problems };
}

function readRule(entry: unknown, index: number, problems: string[]): TdmRepRule | undefined {
  if (!isObject(entry)) {
    problems.push(`rule ${index}: not an object; skipped`);
    return undefined;
  }
  const location = entry['location'];
  if (
    typeof location !== 'string' ||
    location.length === 0 ||
    location.length > MAX_STRING ||
    !(location.startsWith('/') || location.startsWith('*'))
  ) {
    problems.push(`rule ${index}: "location" must be a path pattern starting with "/" (got ${describe(location)}); skipped`);
    return undefined;
  }
  const raw = entry['tdm-reservation'];
  let reservation: 0 | 1 | undefined;
  if (raw === 0 || raw === 1) reservation = raw;
  else {
    reservation = undefined;
    problems.push(`rule ${index}: "tdm-reservation" must be 0 or 1 (got ${describe(raw)}); read as unset`);
  }
  const policy = entry['tdm-policy'];
  if (typeof policy === 'string' && policy.length > 0 && policy.length <= MAX_STRING) return { index, location, reservation, policy };
  if (policy !== undefined) problems.push(`rule ${index}: "tdm-policy" is not a URL string; ignored`);
  return { index, location, reservation };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as a problem line shows it. Only strings and scalars are written out: an array or object
 * is named by its kind, since writing it out would walk it whole, and a hostile file nests 30,000
 * levels deep in 60 KB (JSON.stringify then overflows the stack).
 */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const text = JSON.stringify(value.slice(0, 40));
    return text.length > 40 ? `${text.slice(0, 37)}...` : text;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}
