/**
 * The bot's side of the key directory (the webbotauth directory draft): a new Ed25519 key pair, the
 * directory document that publishes the public half (`{ "keys": [JWK, ...] }`, served at
 * `/.well-known/http-message-signatures-directory` with the media type
 * `application/http-message-signatures-directory+json`), and the directory response's own
 * signature, which proves that whoever serves it holds each private key: each key signs the
 * `@authority` of the request for the directory, with `tag="http-message-signatures-directory"`.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import type { Signer } from 'web-bot-auth';
import { jwkThumbprint, type Ed25519Jwk, type SigningKey } from './signing-key.js';
import { webBotAuth } from './web-bot-auth.js';

/** Where a key directory is served on the bot's host (the library's `HTTP_MESSAGE_SIGNATURES_DIRECTORY`; a test compares them). */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
/** The media type a key directory is served with (the library's `MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY`). */
export const KEY_DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** A new Ed25519 key pair as JWKs: `privateJwk` to sign with (keep it secret), `publicJwk` to publish. */
export function generateKeyPair(): { readonly privateJwk: Ed25519Jwk; readonly publicJwk: Ed25519Jwk } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { d, x } = privateKey.export({ format: 'jwk' }) as { d: string; x: string };
  const kid = jwkThumbprint(x);
  return { privateJwk: { kty: 'OKP', crv: 'Ed25519', kid, x, d }, publicJwk: { kty: 'OKP', crv: 'Ed25519', kid, x } };
}

/** The key directory document listing `keys` (public JWKs; a key being rotated out stays listed until its last signature expires). */
export function keyDirectory(keys: readonly Ed25519Jwk[]): string {
  return `${JSON.stringify({ keys: keys.map(({ kty, crv, x, kid }) => ({ kty, crv, x, ...(kid === undefined ? {} : { kid }) })) }, null, 2)}\n`;
}

/**
 * The headers of the directory response served at `directoryUrl`, signed by every key it lists:
 * `Content-Type` and, per key, a `Signature`/`Signature-Input` member valid from now for `validitySecs`.
 * A server that serves the directory under another host name signs again for that name.
 */
export async function keyDirectoryHeaders(
  directoryUrl: string,
  keys: readonly SigningKey[],
  validitySecs: number,
  now: number = Date.now(),
): Promise<Record<string, string>> {
  const created = new Date(Math.floor(now / 1000) * 1000);
  const expires = new Date(created.getTime() + validitySecs * 1000);
  const signers: Signer[] = keys.map(({ keyid, privateKey }) => ({
    alg: 'ed25519',
    keyid,
    sign: async (data: string) => new Uint8Array(sign(null, Buffer.from(data), privateKey)),
  }));
  const message = {
    request: { method: 'GET', url: directoryUrl, headers: {} },
    response: { status: 200, headers: { 'content-type': KEY_DIRECTORY_MEDIA_TYPE } },
  };
  const signed = await webBotAuth().directoryResponseHeaders(message, signers, { created, expires });
  return { 'Content-Type': KEY_DIRECTORY_MEDIA_TYPE, 'Signature-Input': signed['Signature-Input'], Signature: signed.Signature };
}
