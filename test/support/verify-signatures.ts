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

/**
 * Each of `requests` that does not carry a valid signature by `publicJwk` with `Signature-Agent`
 * `agent`, as `<path>: <why>`; empty when every one verifies.
 */
export async function unverified(requests: Iterable<ReceivedRequest>, publicJwk: Ed25519Jwk, agent: string): Promise<string[]> {
  const verifier = await verifierFromJWK(publicJwk);
  const failed: string[] = [];
  for (const request of requests) {
    if (request.headers['signature-agent'] !== `"${agent}"`) failed.push(`${request.path}: no Signature-Agent`);
    else await verify(asVerified(request), verifier).catch((error: Error) => failed.push(`${request.path}: ${error.message}`));
  }
  return failed;
}
