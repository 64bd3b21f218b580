/**
 * Waiting with an `AbortSignal`: a wait ends early with the signal's own reason (what the caller
 * aborted with), not Node's generic `AbortError`, so a sitemap fetch that gave up says why.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    throw signal?.aborted ? abortReason(signal) : error;
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}

/** Why `signal` aborted, as an Error (`abort()` without a reason gives a DOMException, an Error too). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(`aborted: ${String(reason)}`);
}
