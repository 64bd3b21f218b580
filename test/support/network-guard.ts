/**
 * Tests talk to servers they start on loopback, nothing else. This guard makes that a fact rather
 * than a hope: in every test worker, a DNS lookup of any name but `localhost` fails at once with
 * ENOTFOUND, so no query leaves the machine — not from Heed, and not from Crawlee's local browser
 * proxy, which would otherwise look up Chrome's background hosts for it.
 */
import dns from 'node:dns';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

type LookupCallback = (error: NodeJS.ErrnoException | null, address?: unknown, family?: number) => void;

const original = dns.lookup;
function guardedLookup(hostname: string, ...rest: unknown[]): void {
  if (LOOPBACK.test(hostname) || hostname.endsWith('.localhost')) {
    (original as (...args: unknown[]) => void)(hostname, ...rest);
    return;
  }
  const callback = rest[rest.length - 1] as LookupCallback;
  const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests reach loopback only)`), {
    code: 'ENOTFOUND',
    errno: -3008,
    syscall: 'getaddrinfo',
    hostname,
  });
  process.nextTick(() => callback(error));
}
dns.lookup = guardedLookup as typeof dns.lookup;
dns.promises.lookup = (async (hostname: string, options?: unknown) => {
  if (LOOPBACK.test(hostname) || hostname.endsWith('.localhost')) return original.__promisify__(hostname, options as dns.LookupOptions);
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests reach loopback only)`), { code: 'ENOTFOUND', hostname });
}) as typeof dns.promises.lookup;
