/**
 * `heed keys generate --out DIR`: a new Ed25519 key pair for Web Bot Auth. Writes
 * `DIR/private-key.jwk`, the private JWK the crawler signs with (mode 0600: the plugin refuses a key
 * file every user can read), and `DIR/http-message-signatures-directory`, the key directory to
 * publish at `https://<your bot's host>/.well-known/http-message-signatures-directory`. An existing
 * key is never overwritten: a key lost is a bot that can no longer prove who it is until sites fetch
 * the new directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair, keyDirectory, KEY_DIRECTORY_MEDIA_TYPE, KEY_DIRECTORY_PATH } from '@heed/manager';
import { UsageError, type CliOptions } from './args.js';
import type { CommandResult } from './lint-command.js';
import type { Style } from './output.js';
import { InputError, readProblem } from './source.js';

export const PRIVATE_KEY_FILE = 'private-key.jwk';
export const DIRECTORY_FILE = 'http-message-signatures-directory';

export function keysCommand(operands: readonly string[], options: CliOptions, style: Style): CommandResult {
  if (operands[0] !== 'generate' || operands.length !== 1)
    throw new UsageError(
      operands.length === 0
        ? 'keys needs a subcommand: heed keys generate --out <dir>.'
        : `unknown keys subcommand "${operands.join(' ')}"; use heed keys generate --out <dir>.`,
    );
  const out = options.out;
  if (out === undefined)
    throw new UsageError(`keys generate needs --out <dir>: where ${PRIVATE_KEY_FILE} and ${DIRECTORY_FILE} are written.`);
  const { privateJwk, publicJwk } = generateKeyPair();
  const privatePath = join(out, PRIVATE_KEY_FILE);
  const directoryPath = join(out, DIRECTORY_FILE);
  try {
    mkdirSync(out, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new InputError(`cannot write to --out "${out}": ${readProblem(error)}.`);
  }
  try {
    // `wx`: never over a key that exists.
    writeFileSync(privatePath, `${JSON.stringify(privateJwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'EEXIST'
        ? `${privatePath} exists: heed never overwrites a key. To rotate, generate the new key into another directory and list both keys in the directory you publish until the old key's last signature has expired.`
        : `cannot write ${privatePath}: ${readProblem(error)}.`,
    );
  }
  try {
    writeFileSync(directoryPath, keyDirectory([publicJwk]));
  } catch (error) {
    throw new InputError(`cannot write ${directoryPath}: ${readProblem(error)}.`);
  }
  const keyid = publicJwk.kid ?? '';
  if (options.json)
    return { exitCode: 0, stdout: `${JSON.stringify({ privateKey: privatePath, directory: directoryPath, keyid }, null, 2)}\n` };
  return {
    exitCode: 0,
    stdout:
      `${style.bold('wrote')} ${privatePath}: the private key (mode 0600; keep it secret, give its path to the signature option)\n` +
      `${style.bold('wrote')} ${directoryPath}: the key directory to publish\n` +
      `key id: ${keyid}\n` +
      `Serve the directory at https://<your bot's host>${KEY_DIRECTORY_PATH} with\n` +
      `Content-Type: ${KEY_DIRECTORY_MEDIA_TYPE}, signed by the key (keyDirectoryHeaders() of @heed/manager),\n` +
      `and pass signature: { key: '${privatePath}', signatureAgent: 'https://<your bot's host>${KEY_DIRECTORY_PATH}' }.\n`,
  };
}
