/**
 * How the tests check Web Bot Auth signatures: as a site would, with Cloudflare's verifier, the
 * public key of the bot's key directory, and the request as it arrived (its own Host header is the
 * `@authority` the signature must cover).
 */
import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { generateKeyPair, type Ed25519Jwk } from '@heed/manager';

/** A new key pair, its private half written to `dir/private-key.jwk` (mode 0600) as `heed keys generate` writes it. */
export function writeKeyFile(dir: string): { readonly file: string; readonly publicJwk: Ed25519Jwk } {
  const pair = generateKeyPair();
  const file = join(dir, 'private-key.jwk');
  writeFileSync(file, JSON.stringify(pair.privateJwk), { mode: 0o600 });
  return { file, publicJwk: pair.publicJwk };
}

/** A request a test server received: its path (`req.url`) and headers. */
export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** `request` as the verifier reads a request (method, URL from the Host header, headers as strings). */
export function asVerified(request: ReceivedRequest): { method: string; url: string; headers: Record<string, string> } {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  return { method: 'GET', url: `http://${headers['host'] ?? ''}${request.path}`, headers };
}

/** Why `request` does not verify as of now (`undefined`: it does), the clock read before this returns. */
function judge(request: ReceivedRequest, verifier: Verifier, agent: string): Promise<string | undefined> {
  if (request.headers['signature-agent'] !== `"${agent}"`) return Promise.resolve('no Signature-Agent');
  // `verify` reads the clock (created, expires) before its first await, so the verdict is the
  // one of the moment it is called.
  return verify(asVerified(request), verifier).then(
    () => undefined,
    (error: Error) => error.message,
  );
}

type Verifier = Awaited<ReturnType<typeof verifierFromJWK>>;

/**
 * Verifies each request as it arrives, as a site does: a signature that expires minutes after it
 * was sent is judged when it was received, not when a test gets round to reading it (a crawl's
 * checks may come long after the crawl on a busy machine).
 */
export class ArrivalVerifier {
  readonly #verdicts = new WeakMap<ReceivedRequest, Promise<string | undefined>>();

  private constructor(
    private readonly verifier: Verifier,
    private readonly agent: string,
  ) {}

  static async of(publicJwk: Ed25519Jwk, agent: string): Promise<ArrivalVerifier> {
    return new ArrivalVerifier(await verifierFromJWK(publicJwk), agent);
  }

  /** For the site's `onHit`: judges `request` now. */
  readonly observe = (request: ReceivedRequest): void => {
    this.#verdicts.set(request, judge(request, this.verifier, this.agent));
  };

  /** Each of `requests` that did not verify when it arrived, as `<path>: <why>`; empty when every one did. */
  async unverified(requests: Iterable<ReceivedRequest>): Promise<string[]> {
    const failed: string[] = [];
    for (const request of requests) {
      const why = await (this.#verdicts.get(request) ?? Promise.resolve('not seen as it arrived'));
      if (why !== undefined) failed.push(`${request.path}: ${why}`);
    }
    return failed;
  }
}

/**
 * Each of `requests` that does not carry a valid signature by `publicJwk` with `Signature-Agent`
 * `agent`, as `<path>: <why>`; empty when every one verifies.
 */
export async function unverified(requests: Iterable<ReceivedRequest>, publicJwk: Ed25519Jwk, agent: string): Promise<string[]> {
  const verifier = await verifierFromJWK(publicJwk);
  const failed: string[] = [];
  for (const request of requests) {
    const why = await judge(request, verifier, agent);
    if (why !== undefined) failed.push(`${request.path}: ${why}`);
  }
  return failed;
}
