/**
 * A forward HTTP proxy on 127.0.0.1 that records what passes through it: plain-HTTP requests in
 * absolute form (`GET http://site/path`), forwarded with a `via: 1.1 heed-test-proxy` header the
 * site can see, and `CONNECT host:port` tunnels (for https targets: the bytes go through
 * untouched). `mode` makes it fail the way real proxies do: answer every request and CONNECT with
 * 502 (an upstream error page) or 407 (credentials wanted). It forwards to loopback only: anything
 * else (a browser's own background requests) is recorded and answered 403.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  readonly kind: 'http' | 'connect';
  /** The absolute URL asked for, or `host:port` of a tunnel. */
  readonly target: string;
  readonly userAgent: string;
}

export type ProxyMode = 'forward' | 'bad-gateway' | 'auth-required';

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Everything asked of the proxy, in order (failed ones too). */
  readonly seen: ProxiedRequest[];
  mode: ProxyMode;
  close(): Promise<void>;
}

/** The header the proxy adds to every plain-HTTP request it forwards. */
export const VIA = '1.1 heed-test-proxy';

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '::1';

export async function startForwardProxy(mode: ProxyMode = 'forward'): Promise<ForwardProxy> {
  const sockets = new Set<net.Socket>();
  const seen: ProxiedRequest[] = [];
  const state = { mode };
  const server = http.createServer((req, res) => {
    const target = req.url ?? '';
    seen.push({ kind: 'http', target, userAgent: String(req.headers['user-agent'] ?? '') });
    if (state.mode !== 'forward') {
      const status = state.mode === 'bad-gateway' ? 502 : 407;
      res.writeHead(status, status === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {});
      res.end(`proxy says ${status}`);
      return;
    }
    const url = new URL(target);
    if (!isLoopback(url.hostname)) {
      res.writeHead(403).end();
      return;
    }
    const headers: http.OutgoingHttpHeaders = { ...req.headers, via: VIA };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    seen.push({ kind: 'connect', target, userAgent: String(req.headers['user-agent'] ?? '') });
    if (state.mode !== 'forward') {
      const status = state.mode === 'bad-gateway' ? '502 Bad Gateway' : '407 Proxy Authentication Required';
      client.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port] = target.split(':');
    if (!isLoopback(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    get mode() {
      return state.mode;
    },
    set mode(next: ProxyMode) {
      state.mode = next;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
