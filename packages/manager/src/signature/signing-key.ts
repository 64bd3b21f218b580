/**
 * The private key a crawler signs its requests with (Web Bot Auth): an Ed25519 private JWK, given
 * as the key itself or as the path of a file that holds it (what `heed keys generate` writes).
 * Loaded once, synchronously, when the option is resolved, so that a key that cannot sign fails
 * at construction, with what is wrong and what to do, and never in the middle of a crawl.
 *
 * A key file must not be readable by every user of the machine (mode `0600`, as ssh asks of its
 * keys): anyone who can read it can crawl under the bot's verified name.
 */
import { createPrivateKey, createPublicKey, createHash, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** An Ed25519 key in JWK form (RFC 8037): `x` the public key; `d` the private key, in a private JWK only. */
export interface Ed25519Jwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly d?: string;
  readonly kid?: string;
  readonly [member: string]: unknown;
}

/** A key that can sign: the private key, its public JWK (what the key directory lists) and its key id. */
export interface SigningKey {
  readonly privateKey: KeyObject;
  /** The public half, as the key directory lists it: `kty`, `crv`, `x` (and `kid`, the key id). */
  readonly publicJwk: Ed25519Jwk;
  /** The JWK thumbprint (RFC 7638, SHA-256, base64url) of the public key: the `keyid` of every signature. */
  readonly keyid: string;
}

/** A key that cannot be used, and why: the message says what to do. */
export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/** The largest key file read: a JWK is a few hundred bytes; a larger file is not one. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/** Loads `key` (a private JWK, or the path of a file holding one). Throws {@link SigningKeyError}. */
export function loadSigningKey(key: unknown): SigningKey {
  if (typeof key === 'string') return fromJwk(readKeyFile(key), `the key file ${key}`);
  if (typeof key === 'object' && key !== null && !Array.isArray(key)) return fromJwk(key as Record<string, unknown>, 'the key');
  throw new SigningKeyError(
    `must be the path of a private JWK file (as \`heed keys generate --out DIR\` writes: DIR/private-key.jwk) or the JWK itself; got ${describe(key)}.`,
  );
}

function readKeyFile(path: string): Record<string, unknown> {
  let mode: number;
  let size: number;
  try {
    ({ mode, size } = statSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SigningKeyError(
      code === 'ENOENT'
        ? `the key file ${path} does not exist; create one with \`heed keys generate --out DIR\` and pass DIR/private-key.jwk.`
        : `the key file ${path} cannot be read (${code ?? String(error)}).`,
    );
  }
  // POSIX permission bits; Windows reports none that mean this.
  if (process.platform !== 'win32' && (mode & 0o004) !== 0) {
    throw new SigningKeyError(
      `the key file ${path} is readable by every user of this machine (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): ` +
        `anyone who reads it can sign as your bot. Run \`chmod 600 ${path}\`.`,
    );
  }
  if (size > MAX_KEY_FILE_BYTES) throw new SigningKeyError(`the key file ${path} is ${size} bytes: not a JWK (a few hundred bytes).`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SigningKeyError(`the key file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Said below.
  }
  throw new SigningKeyError(`the key file ${path} does not hold a JSON Web Key (a JSON object such as {"kty":"OKP","crv":"Ed25519",...}).`);
}

function fromJwk(jwk: Record<string, unknown>, what: string): SigningKey {
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519') {
    const kty = typeof jwk['kty'] === 'string' ? jwk['kty'] : 'key without kty';
    const crv = typeof jwk['crv'] === 'string' ? ` ${jwk['crv']}` : '';
    throw new SigningKeyError(
      `${what} is a ${kty}${crv} key; ` +
        'Web Bot Auth signs with Ed25519: an OKP JWK with "crv": "Ed25519" (`heed keys generate` makes one).',
    );
  }
  if (typeof jwk['d'] !== 'string') {
    throw new SigningKeyError(
      `${what} is a public key (no "d"): signing needs the private key, the JWK \`heed keys generate\` writes to private-key.jwk.`,
    );
  }
  if (typeof jwk['x'] !== 'string') throw new SigningKeyError(`${what} has no "x" (its public key); it is not a whole Ed25519 JWK.`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: jwk['d'], x: jwk['x'] }, format: 'jwk' });
  } catch (error) {
    throw new SigningKeyError(`${what} is not a valid Ed25519 key (${error instanceof Error ? error.message : String(error)}).`);
  }
  // The public half as the private key derives it: a JWK whose "x" does not belong to its "d" would sign unverifiably.
  const x = (createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }).x;
  if (x !== jwk['x'])
    throw new SigningKeyError(`${what} has an "x" that is not the public key of its "d"; it would sign what no one can verify.`);
  const keyid = jwkThumbprint(x);
  return { privateKey, keyid, publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid: keyid } };
}

/**
 * The JWK thumbprint (RFC 7638) of an Ed25519 public key: SHA-256 over the required members in
 * lexicographic order, base64url. RFC 8037 §A.3 gives the expected value for its example key.
 */
export function jwkThumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : typeof value;
}
