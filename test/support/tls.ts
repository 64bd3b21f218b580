/** A throwaway self-signed certificate for https servers on 127.0.0.1 (tests that need TLS skip without openssl). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasOpenssl = spawnSync('sh', ['-c', 'command -v openssl']).status === 0;

export interface Certificate {
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** A fresh key and certificate for `CN=127.0.0.1`, valid one day; nothing is left on disk. */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'heed-tls-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    const args = [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ];
    execFileSync('openssl', args, { stdio: 'ignore' });
    return { key: readFileSync(keyFile), cert: readFileSync(certFile) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
