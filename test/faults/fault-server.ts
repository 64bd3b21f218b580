/**
 * Hostile robots.txt servers for the fault suite, all on 127.0.0.1: HTTP behaviours are handlers
 * for the manager tests' programmable server (`startServer`); what plain HTTP cannot say (a garbage
 * status line, TLS spoken to a server that answers in plain bytes) is a raw TCP server.
 */
import type http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Handler } from '../manager/helpers.js';
import { selfSignedCertificate } from '../support/tls.js';

export const RULES = 'User-agent: *\nDisallow: /private\n';

/** A server that is not HTTP: it does whatever `onConnection` does with each socket. */
export interface RawServer {
  readonly port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startRawServer(onConnection: (socket: net.Socket) => void): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // the client hanging up on garbage is expected
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** 200 and then one byte per second, forever (until the client hangs up). */
export const slowBody: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const bytes = Buffer.from(RULES);
  let i = 0;
  const timer = setInterval(() => res.write(bytes.subarray(i % bytes.length, (i++ % bytes.length) + 1)), 1_000);
  res.on('close', () => clearInterval(timer));
};

/**
 * A 200 whose body is `RULES` and then `filler` until `totalBytes` (or forever), written as fast as
 * the client reads it. The same 64 KiB chunk is written again and again, so the server itself holds
 * no more than that.
 */
export function streamedBody(totalBytes = Infinity): Handler {
  const chunk = Buffer.alloc(65_536, '# filler line of a robots.txt that never ends\n');
  return (_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/plain',
      ...(Number.isFinite(totalBytes) ? { 'content-length': String(totalBytes) } : {}),
    });
    res.write(RULES);
    let sent = Buffer.byteLength(RULES);
    const pump = () => {
      while (sent < totalBytes && !res.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, totalBytes - sent));
        sent += part.length;
        if (!res.write(part)) {
          res.once('drain', pump);
          return;
        }
      }
      if (sent >= totalBytes) res.end();
    };
    pump();
  };
}

/**
 * A decompression bomb: `RULES` and then `decodedBytes` of newlines, compressed with `encoding`.
 * Compressed once, from a stream, so building it never holds the decoded size in memory.
 */
export async function bomb(encoding: 'gzip' | 'br', decodedBytes: number): Promise<Buffer> {
  const block = Buffer.alloc(1 << 20, '\n');
  async function* plain() {
    yield Buffer.from(RULES);
    for (let left = decodedBytes; left > 0; left -= block.length) yield block.subarray(0, Math.min(block.length, left));
  }
  const compressor =
    encoding === 'gzip'
      ? zlib.createGzip({ level: 9 })
      : zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  const parts: Buffer[] = [];
  const output = Readable.from(plain()).pipe(compressor);
  for await (const part of output) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export function encodedBody(encoding: string, body: Buffer): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding, 'content-length': String(body.length) });
    res.end(body);
  };
}

export function body(contentType: string, bytes: Buffer | string): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(bytes);
  };
}

export function status(code: number, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(code, headers);
    res.end();
  };
}

export function redirect(location: (req: http.IncomingMessage) => string, code = 302): Handler {
  return (req, res) => {
    res.writeHead(code, { location: location(req) });
    res.end();
  };
}

/** A 200 announcing 64 KiB, then 1 KiB of it, then a TCP reset. */
export const resetMidBody: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '65536' });
  res.write(RULES.padEnd(1_024, '#'), () => {
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
  });
};

/** Deterministic bytes (xorshift), so the binary case reads the same bytes on every run. */
export function pseudoRandomBytes(length: number, seed = 0x2545f491): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** An HTTPS server with a throw-away self-signed certificate, when `openssl` is installed. */
export interface TlsServer {
  readonly origin: string;
  robotsRequests(): number;
  close(): Promise<void>;
}

export async function startTlsServer(text: string): Promise<TlsServer> {
  let robots = 0;
  const server = https.createServer(selfSignedCertificate(), (req, res) => {
    if (req.url === '/robots.txt') robots++;
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    robotsRequests: () => robots,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
