/**
 * A programmable robots.txt server on 127.0.0.1 for the manager tests: each test gives it a
 * handler, and asserts on what it saw (requests, headers).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
}

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** Every request the server received, in order. */
  readonly seen: SeenRequest[];
  /** Requests received for `/robots.txt`. */
  robotsRequests(): number;
  /** Replaces the handler. */
  handle(handler: Handler): void;
  /** Connections open now, as the server counts them. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

export async function startServer(
  handler: Handler = (_req, res) => res.end(),
  host = '127.0.0.1',
  { keepAliveMs }: { keepAliveMs?: number } = {},
): Promise<TestServer> {
  let current = handler;
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    current(req, res, seen.length);
  });
  // An idle connection is closed by the server after this long (Node's default: 5 s).
  if (keepAliveMs !== undefined) server.keepAliveTimeout = keepAliveMs;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    port,
    seen,
    robotsRequests: () => seen.filter((r) => r.url === '/robots.txt').length,
    handle(next) {
      current = next;
    },
    connections() {
      return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A log that records what it is told. */
export function recordingLog() {
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => {
    lines.push({ level, message, ...(data === undefined ? {} : { data }) });
  };
  return { lines, log: { debug: at('debug'), info: at('info'), warning: at('warning'), error: at('error') } };
}

export const UA = 'HeedBot/1.0 (+https://example.com/bot)';
