/**
 * Web Bot Auth in the manager: the signing primitive against RFC 9421's Ed25519 test vector and RFC
 * 8037's thumbprint, every robots.txt and tdmrep.json request (each redirect hop for its own host)
 * verified by a loopback site with Cloudflare's verifier, the key directory and its own signature,
 * the key errors a user meets, and a robots.txt answered 402 Payment Required (pay-per-crawl).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify as rfcVerify } from 'http-message-sig';
import { verify as verifyBotAuth, jwkToKeyID, helpers, HTTP_MESSAGE_SIGNATURES_DIRECTORY, MediaType } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { createPublicKey, sign, verify as verifyEd25519 } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateKeyPair,
  InvalidOptionsError,
  jwkThumbprint,
  keyDirectory,
  keyDirectoryHeaders,
  KEY_DIRECTORY_MEDIA_TYPE,
  KEY_DIRECTORY_PATH,
  loadSigningKey,
  RequestSigner,
  RobotsManager,
  type Ed25519Jwk,
} from '@heed/manager';
import { asVerified, writeKeyFile } from '../support/verify-signatures.js';
import { recordingLog, startServer, UA, type SeenRequest, type TestServer } from './helpers.js';

/** RFC 9421 Appendix B.1.4, the test key every implementation checks against. */
const RFC_KEY: Ed25519Jwk = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
};
const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

/** A request the site received, as a verifier reads it. */
const asReceived = (seen: SeenRequest) => asVerified({ path: seen.url, headers: seen.headers });

describe('the signing primitive', () => {
  it("reproduces RFC 9421's B.2.6 signature (Ed25519) byte for byte, over the signature base the library builds", async () => {
    const key = loadSigningKey(RFC_KEY);
    const base = [
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@authority": example.com',
      '"content-type": application/json',
      '"content-length": 18',
      '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    ].join('\n');
    const signature = 'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==';
    // node:crypto's one-shot Ed25519 sign, as RequestSigner signs, with the key as loadSigningKey reads it.
    expect(sign(null, Buffer.from(base), key.privateKey).toString('base64')).toBe(signature);
    // The library reads the RFC's headers back into the same base.
    const request = {
      method: 'POST',
      url: 'https://example.com/foo?param=Value&Pet=dog',
      headers: {
        date: 'Tue, 20 Apr 2021 02:07:55 GMT',
        'content-type': 'application/json',
        'content-length': '18',
        'signature-input':
          'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
        signature: `sig-b26=:${signature}:`,
      },
    };
    const public_ = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: RFC_KEY.x }, format: 'jwk' });
    await expect(
      rfcVerify(request, (data, bytes) => data === base && verifyEd25519(null, Buffer.from(data), public_, bytes)),
    ).resolves.toBe(true);
  });

  it("names the key by its RFC 7638 thumbprint (RFC 8037's example, and the library's own computation)", async () => {
    expect(jwkThumbprint('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo')).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
    const { x } = RFC_KEY;
    expect(loadSigningKey(RFC_KEY).keyid).toBe(
      await jwkToKeyID({ kty: 'OKP', crv: 'Ed25519', x }, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE),
    );
  });

  it('signs each request afresh: its own nonce, created now, expiring validitySecs later', () => {
    const now = 1_800_000_000_500;
    const signer = new RequestSigner({ key: loadSigningKey(RFC_KEY), signatureAgent: AGENT, validitySecs: 60, now: () => now });
    const a = signer.headersFor('https://a.example/robots.txt');
    const b = signer.headersFor('https://a.example/robots.txt');
    expect(a['signature-agent']).toBe(`"${AGENT}"`);
    expect(a['signature-input']).toMatch(
      /^sig1=\("@authority" "signature-agent"\);created=1800000000;keyid="[\w-]{43}";alg="ed25519";expires=1800000060;nonce="[^"]+";tag="web-bot-auth"$/,
    );
    expect(a['signature-input']).not.toBe(b['signature-input']);
    expect(signer.signed).toBe(2);
  });
});

describe('a manager with signature: every request it sends is signed for the host it goes to', () => {
  let a: TestServer;
  let b: TestServer;
  let dir: string;
  let keyFile: string;
  let publicJwk: Ed25519Jwk;
  let manager: RobotsManager;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'heed-signature-'));
    ({ file: keyFile, publicJwk } = writeKeyFile(dir));
    b = await startServer((req, res) => {
      if (req.url === '/robots.txt') return void res.end('User-agent: *\nDisallow: /private\n');
      res.writeHead(404).end();
    });
    // A's robots.txt redirects to B's: the hop to B is a request to another host, signed for it.
    a = await startServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(301, { location: `${b.origin}/robots.txt` }).end();
      if (req.url === '/.well-known/tdmrep.json') return void res.end('[]');
      res.writeHead(404).end();
    });
    manager = new RobotsManager({ userAgent: UA, log: recordingLog().log, signature: { key: keyFile, signatureAgent: AGENT } });
    expect((await manager.decide(`${a.origin}/private/x`)).allowed).toBe(false);
    await manager.usage(`${a.origin}/doc`, { purposes: ['train-ai'] });
  });

  afterAll(async () => {
    await manager?.close();
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends robots.txt, its redirect hop and tdmrep.json with signatures Cloudflare's verifier accepts", async () => {
    const verifier = await verifierFromJWK(publicJwk);
    const requests = [...a.seen, ...b.seen];
    expect(requests.map((r) => r.url).sort()).toEqual(['/.well-known/tdmrep.json', '/robots.txt', '/robots.txt']);
    for (const request of requests) {
      expect(request.headers['signature-agent']).toBe(`"${AGENT}"`);
      await expect(verifyBotAuth(asReceived(request), verifier), `${request.url} verifies`).resolves.toBeUndefined();
    }
  });

  it('a signature does not verify for another host, nor under another key', async () => {
    const [request] = b.seen;
    const moved = { ...asReceived(request!), url: `http://elsewhere.example${request!.url}` };
    await expect(verifyBotAuth(moved, await verifierFromJWK(publicJwk))).rejects.toThrow();
    await expect(verifyBotAuth(asReceived(request!), await verifierFromJWK(generateKeyPair().publicJwk))).rejects.toThrow();
  });

  it('an unsigned manager sends none of the headers', async () => {
    const plain = new RobotsManager({ userAgent: UA, log: recordingLog().log });
    const before = b.seen.length;
    await plain.decide(`${b.origin}/x`);
    await plain.close();
    expect(b.seen.slice(before).map((r) => r.headers['signature'] ?? r.headers['signature-agent'] ?? 'none')).toEqual(['none']);
  });
});

describe('the key directory', () => {
  it('lists the public keys only, and its response is signed by each key for the host that serves it', async () => {
    const one = generateKeyPair();
    const two = generateKeyPair();
    const document = JSON.parse(keyDirectory([one.publicJwk, two.privateJwk])) as { keys: Record<string, string>[] };
    expect(document.keys).toEqual([one.publicJwk, two.publicJwk]);
    expect(JSON.stringify(document)).not.toContain('"d"');

    const url = 'https://bot.example/.well-known/http-message-signatures-directory';
    const headers = await keyDirectoryHeaders(url, [loadSigningKey(one.privateJwk)], 3600);
    expect(headers['Content-Type']).toBe(KEY_DIRECTORY_MEDIA_TYPE);
    expect([KEY_DIRECTORY_MEDIA_TYPE, KEY_DIRECTORY_PATH]).toEqual([
      MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY,
      HTTP_MESSAGE_SIGNATURES_DIRECTORY,
    ]);
    const served = (host: string) => ({
      request: { method: 'GET', url: url.replace('bot.example', host), headers: {} },
      response: { status: 200, headers: lower(headers) },
    });
    const check = (data: string, signature: Uint8Array, params: { tag?: unknown; keyid?: unknown }) => {
      expect(params.tag).toBe('http-message-signatures-directory');
      expect(params.keyid).toBe(one.publicJwk.kid);
      if (!verifyEd25519(null, Buffer.from(data), createPublicKey({ key: { ...one.publicJwk }, format: 'jwk' }), signature))
        throw new Error('bad signature');
      return true;
    };
    await expect(rfcVerify(served('bot.example'), check)).resolves.toBe(true);
    await expect(rfcVerify(served('mirror.example'), check)).rejects.toThrow('bad signature');
    // Each key signs: one member per key.
    const both = await keyDirectoryHeaders(url, [loadSigningKey(one.privateJwk), loadSigningKey(two.privateJwk)], 3600);
    expect(both['Signature-Input']).toMatch(/^binding0=.*keyid="[\w-]+".*, binding1=.*$/);
    expect(both['Signature-Input']).toContain(one.publicJwk.kid);
    expect(both['Signature-Input']).toContain(two.publicJwk.kid);
  });
});

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

describe('signature options a user gets wrong', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heed-signature-keys-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const attempt = (signature: unknown) => () => new RobotsManager({ userAgent: UA, signature } as never);
  const keyFile = (name: string, content: unknown, mode = 0o600) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    chmodSync(path, mode);
    return path;
  };

  const cases: readonly (readonly [string, () => unknown, RegExp])[] = [
    [
      'a key file every user can read',
      () => ({ key: keyFile('open.jwk', generateKeyPair().privateJwk, 0o644), signatureAgent: AGENT }),
      /readable by every user.*chmod 600/,
    ],
    ['a key file that is not there', () => ({ key: join(dir, 'absent.jwk'), signatureAgent: AGENT }), /does not exist.*heed keys generate/],
    ['a file that is not JSON', () => ({ key: keyFile('text.jwk', 'not a key'), signatureAgent: AGENT }), /does not hold a JSON Web Key/],
    ['the public key', () => ({ key: generateKeyPair().publicJwk, signatureAgent: AGENT }), /is a public key \(no "d"\)/],
    [
      'an RSA key',
      () => ({ key: { kty: 'RSA', n: 'x', e: 'AQAB', d: 'y' }, signatureAgent: AGENT }),
      /is a RSA key; Web Bot Auth signs with Ed25519/,
    ],
    [
      'an x that is not its d',
      () => ({ key: { ...generateKeyPair().privateJwk, x: generateKeyPair().publicJwk.x }, signatureAgent: AGENT }),
      /not the public key of its "d"/,
    ],
    [
      'no signatureAgent',
      () => ({ key: generateKeyPair().privateJwk }),
      /signatureAgent: expected the http\(s\) URL of your key directory/,
    ],
    [
      'a signatureAgent with a quote',
      () => ({ key: generateKeyPair().privateJwk, signatureAgent: 'https://bot.example/"x' }),
      /signatureAgent/,
    ],
    [
      'validitySecs of a day',
      () => ({ key: generateKeyPair().privateJwk, signatureAgent: AGENT, validitySecs: 86_400 }),
      /validitySecs: expected a whole number of seconds from 1 to 3600/,
    ],
    ['a misspelt option', () => ({ key: generateKeyPair().privateJwk, signatureAgent: AGENT, validity: 60 }), /has no option "validity"/],
    ['a string', () => 'keys/private-key.jwk', /expected \{ key:/],
  ];
  it.each(cases)('%s: fails at construction, saying what to do', (_name, make, message) => {
    expect(attempt(make())).toThrow(InvalidOptionsError);
    expect(attempt(make())).toThrow(message);
  });
});

describe('robots.txt that answers 402 Payment Required', () => {
  it('is a 4xx: everything allowed (RFC 9309), and the price asked is logged once, escaped', async () => {
    const site = await startServer((_req, res) => res.writeHead(402, { 'crawler-price': 'USD 0.01\x9b2J' }).end('pay'));
    const { lines, log } = recordingLog();
    const manager = new RobotsManager({ userAgent: UA, log });
    try {
      const verdict = await manager.decide(`${site.origin}/page`);
      expect(verdict).toMatchObject({ allowed: true, reason: 'unavailable' });
      expect(verdict.record.httpStatus).toBe(402);
      await manager.decide(`${site.origin}/other`);
      const asked = lines.filter((line) => line.message.includes('402 Payment Required'));
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ level: 'info' });
      // A C1 control (CSI: a terminal reads it as ESC [) is shown, not sent.
      expect(asked[0]!.message).toContain('(crawler-price: USD 0.01\\x9b2J): a 4xx, so everything is allowed');
    } finally {
      await manager.close();
      await site.close();
    }
  });
});
