/**
 * The `signature` option of the manager and of the plugin: `{ key, signatureAgent, validitySecs }`,
 * checked and turned into a {@link RequestSigner} when the options are resolved, so a key that
 * cannot sign or a directory URL that cannot be sent fails at construction (at `attach()`).
 */
import type { FieldContext, OptionField } from '@heed/parser';
import { RequestSigner } from './request-signer.js';
import { loadSigningKey, SigningKeyError, type Ed25519Jwk } from './signing-key.js';

/** Web Bot Auth signing of every request (option `signature`). Off unless given. */
export interface SignatureOptions {
  /**
   * The private Ed25519 key: the path of its JWK file (`heed keys generate --out DIR` writes
   * `DIR/private-key.jwk`, mode 0600; a file every user can read is refused) or the JWK itself.
   */
  readonly key: string | Ed25519Jwk;
  /**
   * The URL of the bot's key directory, sent in `Signature-Agent`: where sites fetch the public
   * key, e.g. `'https://bot.example/.well-known/http-message-signatures-directory'`. https in production.
   */
  readonly signatureAgent: string;
  /** Seconds a signature stays valid after the request is signed, 1 to 3,600. @default 300 */
  readonly validitySecs?: number;
}

const DEFAULT_VALIDITY_SECS = 300;
const MAX_VALIDITY_SECS = 3600;
const KNOWN = new Set(['key', 'signatureAgent', 'validitySecs']);
const EXAMPLE = '{ key: "keys/private-key.jwk", signatureAgent: "https://bot.example/.well-known/http-message-signatures-directory" }';

/** The `signature` option field: absent is off; given, it resolves to the signer. */
export function signatureField(
  now?: () => number,
): OptionField<SignatureOptions | RequestSigner | undefined, RequestSigner | undefined, undefined> {
  return {
    kind: 'custom',
    default: undefined,
    // A signer made already (the plugin hands its own to the manager it creates): its key is loaded.
    read: (value: unknown, at: FieldContext) => (value === undefined || value instanceof RequestSigner ? value : signerOf(value, at, now)),
  };
}

function signerOf(value: unknown, at: FieldContext, now: (() => number) | undefined): RequestSigner {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) at.fail(`expected ${EXAMPLE}.`);
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !KNOWN.has(name));
  if (unknown !== undefined) at.fail(`has no option "${unknown}"; it takes key, signatureAgent and validitySecs.`);
  const { key, signatureAgent, validitySecs = DEFAULT_VALIDITY_SECS } = given;
  if (key === undefined) at.fail(`needs key: the path of the private JWK file, e.g. ${EXAMPLE}.`);
  let loaded;
  try {
    loaded = loadSigningKey(key);
  } catch (error) {
    if (!(error instanceof SigningKeyError)) throw error;
    at.fail(`.key: ${error.message}`);
  }
  if (!isHttpUrl(signatureAgent))
    at.fail(
      `.signatureAgent: expected the http(s) URL of your key directory, e.g. ${EXAMPLE}; got ${JSON.stringify(signatureAgent) ?? String(signatureAgent)}.`,
    );
  if (typeof validitySecs !== 'number' || !Number.isInteger(validitySecs) || validitySecs < 1 || validitySecs > MAX_VALIDITY_SECS)
    at.fail(`.validitySecs: expected a whole number of seconds from 1 to ${MAX_VALIDITY_SECS}; got ${String(validitySecs)}.`);
  return new RequestSigner({ key: loaded, signatureAgent, validitySecs, ...(now === undefined ? {} : { now }) });
}

/** An http(s) URL that can be sent inside a quoted structured-field string: no quote, backslash or control character. */
function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || /["\\\x00-\x1f\x7f-\uffff]/u.test(value)) return false;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
