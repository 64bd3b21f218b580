import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectedOutcome, type ExpectedOutcome } from './expected.js';
import { buildRoutes, findRoute, type SiteRoutes } from './routes.js';
import { DEMO_ORIGIN_NAMES, type DemoOriginName, type DemoOrigins, type DemoRequest, type DemoSiteOptions } from './types.js';

/** A running demo site. */
export interface DemoSite {
  /** Base URL of each origin (`http://127.0.0.1:<port>`, no trailing slash). */
  readonly origins: DemoOrigins;
  /** Every request received so far, in arrival order (live: it grows while the site runs). */
  readonly requests: readonly DemoRequest[];
  /** What a crawl of this site should do, for the ports it runs on. */
  readonly expected: ExpectedOutcome;
  /** Absolute URL of `path` on `origin`: `site.url('shop', '/cart')`. */
  url(origin: DemoOriginName, path: string): string;
  /** Stops every origin; open connections are cut. Safe to call twice. */
  close(): Promise<void>;
}

/** Thrown when an origin cannot listen (port taken, bad host). */
export class DemoSiteStartError extends Error {
  override readonly name = 'DemoSiteStartError';
}

/**
 * Starts the demo site: four origins on loopback ports, each with its own robots.txt situation
 * (see the README of `@heed/demo-site` and {@link expectedOutcome}).
 */
export async function startDemoSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const host = options.host ?? '127.0.0.1';
  const requests: DemoRequest[] = [];
  // Routes need every origin's URL (pages link across origins), and URLs need the ports, so the
  // servers start first and look their routes up through this late-bound reference.
  // eslint-disable-next-line prefer-const -- read by the servers before it is set (they answer 503 until then).
  let routes: SiteRoutes | undefined;

  const servers = new Map<DemoOriginName, Server>();
  const closeAll = async (): Promise<void> => {
    await Promise.all([...servers.values()].map(closeServer));
    servers.clear();
  };

  try {
    for (const name of DEMO_ORIGIN_NAMES) {
      const server = createServer((request, response) => {
        const status = answer(routes?.[name], request, response);
        const entry: DemoRequest = {
          origin: name,
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          userAgent: request.headers['user-agent'] ?? '',
          time: Date.now(),
          status,
        };
        requests.push(entry);
        options.onRequest?.(entry);
      });
      servers.set(name, server);
      await listen(server, options.ports?.[name] ?? 0, host, name);
    }
  } catch (error) {
    await closeAll();
    throw error;
  }

  const urlHost = host.includes(':') ? `[${host}]` : host;
  const origins = Object.fromEntries(
    [...servers].map(([name, server]) => [name, `http://${urlHost}:${(server.address() as AddressInfo).port}`]),
  ) as Record<DemoOriginName, string>;
  routes = buildRoutes(origins);

  return {
    origins,
    requests,
    expected: expectedOutcome(origins),
    url: (origin, path) => new URL(path, `${origins[origin]}/`).href,
    close: closeAll,
  };
}

function answer(routes: SiteRoutes[DemoOriginName] | undefined, request: IncomingMessage, response: ServerResponse): number {
  if (routes === undefined) {
    response.writeHead(503, { 'retry-after': '1' }).end();
    return 503;
  }
  const route = findRoute(routes, request.url ?? '/');
  response.writeHead(route.status, route.headers);
  response.end(request.method === 'HEAD' ? undefined : route.body);
  return route.status;
}

function listen(server: Server, port: number, host: string, name: DemoOriginName): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void =>
      reject(
        new DemoSiteStartError(
          `demo site origin "${name}" cannot listen on ${host}:${port} (${error.message}); choose another port or pass 0 for a free one`,
        ),
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
