/**
 * Signs requests as Web Bot Auth asks (the IETF webbotauth protocol draft over HTTP Message
 * Signatures, RFC 9421): each request carries
 *
 * - `Signature-Agent`: where the bot's key directory is, as a quoted string;
 * - `Signature-Input`: what is covered (`@authority` and `signature-agent`), `created` and `expires`,
 *   `keyid` (the key's JWK thumbprint), `alg`, a fresh 64-byte `nonce` and `tag="web-bot-auth"`;
 * - `Signature`: the Ed25519 signature of that signature base.
 *
 * The signature base and the header syntax are Cloudflare's `web-bot-auth` library's (the
 * reference implementation the drafts' authors keep, with its RFC 9421 core `http-message-sig`);
 * only the Ed25519 signing itself is Node.js's, synchronous, so a request is signed in the hook
 * that sends it, not a promise later. The covered components name the host, not the path: one
 * signature per host and moment would verify for any path, which is why each request gets its own
 * nonce and a short life.
 */
import { sign } from 'node:crypto';
import type { SignerSync } from 'web-bot-auth';
import { webBotAuth } from './web-bot-auth.js';
import type { SigningKey } from './signing-key.js';

/** The headers a signed request carries, names in lower case as Node.js sends them. */
export interface SignatureHeaderSet {
  readonly 'signature-agent': string;
  readonly 'signature-input': string;
  readonly signature: string;
}

/** What a {@link RequestSigner} signs with. */
export interface RequestSignerOptions {
  /** The key (loaded by `loadSigningKey`). */
  readonly key: SigningKey;
  /** The URL of the bot's key directory, sent in `Signature-Agent`. */
  readonly signatureAgent: string;
  /** Seconds a signature stays valid after it is made (`expires` − `created`). */
  readonly validitySecs: number;
  /** The clock, ms since the epoch. Default: `Date.now`. */
  readonly now?: () => number;
}

export class RequestSigner {
  private readonly signer: SignerSync;
  private readonly sign = webBotAuth().signatureHeadersSync;
  private readonly agentHeader: string;
  private readonly now: () => number;
  /** Requests signed so far. */
  signed = 0;

  constructor(private readonly options: RequestSignerOptions) {
    const { privateKey, keyid } = options.key;
    this.signer = { alg: 'ed25519', keyid, signSync: (data: string) => new Uint8Array(sign(null, Buffer.from(data), privateKey)) };
    this.agentHeader = `"${options.signatureAgent}"`;
    this.now = options.now ?? Date.now;
  }

  /** The key id every signature names: the JWK thumbprint of the public key. */
  get keyid(): string {
    return this.options.key.keyid;
  }

  /** The signature headers of a request to `url` (each redirect hop is a request of its own: sign each). */
  headersFor(url: string, method = 'GET'): SignatureHeaderSet {
    const created = new Date(Math.floor(this.now() / 1000) * 1000);
    const expires = new Date(created.getTime() + this.options.validitySecs * 1000);
    const headers = { 'signature-agent': this.agentHeader };
    const signature = this.sign({ method, url, headers }, this.signer, { created, expires });
    this.signed++;
    return { 'signature-agent': this.agentHeader, 'signature-input': signature['Signature-Input'], signature: signature.Signature };
  }
}

/** `signer`'s headers as a bounded GET asks for them, per request URL. */
export function signatureHeadersOf(signer: RequestSigner): (url: string) => Readonly<Record<string, string>> {
  return (url) => ({ ...signer.headersFor(url) });
}
