/**
 * `/.well-known/tdmrep.json` as a kind of file the loader fetches (see
 * `loader/origin-file-loader.ts`), so it gets robots.txt's rules: the same bounded GET (timeouts,
 * redirects, proxy), the same status policy (2xx → the file; 4xx → none, i.e. no reservation;
 * 5xx/429/network → unreachable, retried with backoff, the last good copy meanwhile), the same cache
 * TTL, the same single flight in process and across processes, and the same store, under a key of
 * its own: the file's URL (`https://a.example/.well-known/tdmrep.json`), which is also the record's
 * `origin`, so a robots record can never be read as a tdmrep one.
 *
 * Where robots.txt and TDMRep differ: an unreachable tdmrep.json with no good copy states nothing
 * (every category unknown) rather than disallowing everything: robots.txt already decides whether
 * the origin may be crawled, and a TDM reservation is a statement, not a gate. A body larger than
 * {@link MAX_TDMREP_BYTES} is refused whole (no rule is guessed from half a file).
 */
import type { CacheBounds, FileKind } from '../loader/origin-file-loader.js';
import { problemOf } from '../record.js';
import { MAX_TDMREP_BYTES, parseTdmRep, TdmRepMatcher } from '../tdmrep/index.js';

/** The path of the file (TDMRep, "TDM Reservation Protocol", §3.2.1). */
export const TDMREP_PATH = '/.well-known/tdmrep.json';

/** An origin's tdmrep.json, ready to answer. */
export interface TdmRepReading {
  /** The file's URL. */
  readonly url: string;
  /** The parsed rules, when the file was read (`ok`, or the last good copy while unreachable). */
  readonly matcher: TdmRepMatcher | undefined;
  /** Why there are no rules, or what was wrong with the file: for explanations. */
  readonly note: string | undefined;
}

/**
 * Files kept parsed in process. A file is a few hundred bytes and at most 64 KiB; the byte bound
 * holds the entry bound's worth of typical files, and a crawl with AI purposes asks for one per origin.
 */
export const TDMREP_CACHE: CacheBounds = Object.freeze({ maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 });

/**
 * What a parsed file is counted for beyond its record: its rules are a few small objects per
 * entry of the JSON, bounded by a multiple of its bytes.
 */
const PARSED_BYTES_PER_BODY_BYTE = 4;

export const tdmrepKind: FileKind<TdmRepReading> = {
  name: 'tdmrep.json',
  keyOf: (origin) => `${origin}${TDMREP_PATH}`,
  urlOf: (origin) => `${origin}${TDMREP_PATH}`,
  // One byte past the limit: a longer file arrives capped, and parseTdmRep refuses it whole.
  maxBytes: () => MAX_TDMREP_BYTES + 1,
  parse(url, record, policy) {
    if (policy.kind === 'rules') {
      const body = Buffer.from(policy.body, 'base64');
      const file = parseTdmRep(body);
      let note: string | undefined;
      if (file.problems.length > 0) note = `${url}: ${file.problems.join('; ')}`;
      if (policy.reason === 'stale-copy')
        note = `${url} is unreachable (${problemOf(record)?.code ?? 'unknown'}); its last good copy is used`;
      return { value: { url, matcher: new TdmRepMatcher(file), note }, bytes: body.length * PARSED_BYTES_PER_BODY_BYTE };
    }
    const note =
      policy.kind === 'allow-all'
        ? record.status === 'unreachable'
          ? `${url} has been unreachable too long: no reservation is read`
          : undefined
        : `${url} is unreachable (${problemOf(record)?.code ?? 'unknown'}): no reservation could be read`;
    return { value: { url, matcher: undefined, note }, bytes: 2 * (note?.length ?? 0) };
  },
};
