/**
 * `heed keys generate`: a key pair a crawler can sign with at once (the manager takes the file as
 * written) and a key directory that verifies its signatures; never over an existing key.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsManager, type Ed25519Jwk } from '@heed/manager';
import { unverified } from '../support/verify-signatures.js';
import { recordingLog, startServer, UA, type TestServer } from '../manager/helpers.js';
import { run } from './run-heed.js';

const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

describe('heed keys generate', () => {
  let dir: string;
  let site: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'heed-keys-'));
    site = await startServer((_req, res) => res.end('User-agent: *\nAllow: /\n'));
  });
  afterAll(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a private key (0600) the signature option takes and a directory whose key verifies what it signs', async () => {
    const out = join(dir, 'bot-keys');
    const result = await run(['keys', 'generate', '--out', out, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const written = JSON.parse(result.stdout) as { privateKey: string; directory: string; keyid: string };
    expect(written.privateKey).toBe(join(out, 'private-key.jwk'));
    expect(statSync(written.privateKey).mode & 0o777).toBe(0o600);
    const directory = JSON.parse(readFileSync(written.directory, 'utf8')) as { keys: Ed25519Jwk[] };
    expect(directory.keys).toHaveLength(1);
    expect(directory.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: written.keyid });
    expect(directory.keys[0]).not.toHaveProperty('d');

    const manager = new RobotsManager({
      userAgent: UA,
      log: recordingLog().log,
      signature: { key: written.privateKey, signatureAgent: AGENT },
    });
    await manager.decide(`${site.origin}/page`);
    await manager.close();
    const [request] = site.seen;
    const received = { path: request!.url, headers: request!.headers };
    expect(await unverified([received], directory.keys[0]!, AGENT)).toEqual([]);
    expect(String(request!.headers['signature-input'])).toContain(`keyid="${written.keyid}"`);
  });

  it('never overwrites a key, and says how to rotate instead', async () => {
    const out = join(dir, 'once');
    expect((await run(['keys', 'generate', '--out', out])).code).toBe(0);
    const before = readFileSync(join(out, 'private-key.jwk'), 'utf8');
    const again = await run(['keys', 'generate', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/private-key\.jwk exists: heed never overwrites a key\. To rotate/);
    expect(readFileSync(join(out, 'private-key.jwk'), 'utf8')).toBe(before);
  });

  it.each([
    [['keys'], /keys needs a subcommand: heed keys generate --out <dir>/],
    [['keys', 'make'], /unknown keys subcommand "make"/],
    [['keys', 'generate'], /keys generate needs --out <dir>/],
    [['keys', 'generate', '--out', 'x', '-A', UA], /--user-agent does not apply to keys/],
    [['lint', 'robots.txt', '--out', 'x'], /--out only applies to disclose and keys generate/],
  ])('%j: usage error, exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
