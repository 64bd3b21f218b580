/**
 * A local multi-origin web site for the plugin's integration tests: several HTTP servers on
 * 127.0.0.1 (each a distinct origin), each logging every request it receives (path and
 * user-agent), with routes the test programs after the ports are known (pages link across origins).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

/**
 * Crawlee packages, loaded from @heed/crawlee's own dependencies (the workspace root does not have
 * them; pnpm keeps each package's dependencies to itself). The same module instances the plugin uses.
 * Each is loaded when first used: most test files use one or two of them, and loading them all
 * (Playwright, Puppeteer, JSDOM among them) would cost every file seconds.
 */
const crawleeRequire = createRequire(new URL('../../packages/crawlee/package.json', import.meta.url));

/** `name`, required on the first use of any of its members. */
function lazy<Module extends object>(name: string): Module {
  let loaded: Module | undefined;
  const load = () => (loaded ??= crawleeRequire(name) as Module);
  return new Proxy({} as Module, {
    get: (_target, key) => Reflect.get(load(), key),
    has: (_target, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
  });
}

export const crawleeCore = lazy<typeof import('@crawlee/core')>('@crawlee/core');
export const crawleeBasic = lazy<typeof import('@crawlee/basic')>('@crawlee/basic');
export const crawleeHttp = lazy<typeof import('@crawlee/http')>('@crawlee/http');
export const crawleeCheerio = lazy<typeof import('@crawlee/cheerio')>('@crawlee/cheerio');
export const crawleePlaywright = lazy<typeof import('@crawlee/playwright')>('@crawlee/playwright');
export const playwright = lazy<typeof import('playwright')>('playwright');
export const crawleeJsdom = lazy<typeof import('@crawlee/jsdom')>('@crawlee/jsdom');
export const crawleePuppeteer = lazy<typeof import('@crawlee/puppeteer')>('@crawlee/puppeteer');
export const puppeteer = lazy<typeof import('puppeteer')>('puppeteer');

/** A fresh in-memory Crawlee configuration, so runs never share or persist storage. */
export function freshConfig(): import('@crawlee/core').Configuration {
  return new crawleeCore.Configuration({ persistStorage: false, purgeOnStart: true });
}

export interface Hit {
  readonly path: string;
  readonly userAgent: string;
  /** Every header of the request, as Node.js read it (names in lower case). */
  readonly headers: IncomingHttpHeaders;
  /** When the request arrived (ms since the epoch). */
  readonly at: number;
}

export interface RouteResponse {
  readonly status?: number;
  readonly headers?: Record<string, string | string[]>;
  readonly body?: string | Buffer;
}

export type Route = RouteResponse | ((req: IncomingMessage) => RouteResponse | Promise<RouteResponse>);

export interface SiteOrigin {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly routes: Map<string, Route>;
  /** Every request received, in order. */
  readonly hits: Hit[];
  /** Paths requested (query included). */
  paths(): string[];
  /** How many times `path` was requested. */
  count(path: string): number;
  url(path: string): string;
}

export interface Site {
  readonly origins: SiteOrigin[];
  close(): Promise<void>;
  /** Every hit of every origin as full URLs. */
  allUrls(): string[];
}

/** What a site does besides recording: `onHit` sees each request as it arrives, before it is answered. */
export interface SiteOptions {
  readonly onHit?: (hit: Hit) => void;
}

/** Starts `count` origins, each on a free port of 127.0.0.1; unknown paths answer 404. */
export async function startSite(count: number, options: SiteOptions = {}): Promise<Site> {
  return startSiteOn(
    Array.from({ length: count }, () => '127.0.0.1'),
    options,
  );
}

/** One origin per loopback address, each on a free port (several on one address differ by port). */
export async function startSiteOn(addresses: readonly string[], { onHit }: SiteOptions = {}): Promise<Site> {
  const servers: Server[] = [];
  const origins: SiteOrigin[] = [];
  for (const address of addresses) {
    const routes = new Map<string, Route>();
    const hits: Hit[] = [];
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      const hit = { path, userAgent: String(req.headers['user-agent'] ?? ''), headers: req.headers, at: Date.now() };
      hits.push(hit);
      onHit?.(hit);
      const route = routes.get(path);
      void Promise.resolve(
        route === undefined ? { status: 404, body: 'not found' } : typeof route === 'function' ? route(req) : route,
      ).then((response) => {
        // A route that answered late (a slow sitemap) may find the client gone.
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(response.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...response.headers });
        res.end(response.body ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    servers.push(server);
    const origin = `http://${address}:${(server.address() as AddressInfo).port}`;
    origins.push({
      origin,
      routes,
      hits,
      paths: () => hits.map((h) => h.path),
      count: (path) => hits.filter((h) => h.path === path).length,
      url: (path) => `${origin}${path}`,
    });
  }
  return {
    origins,
    allUrls: () => origins.flatMap((o) => o.hits.map((h) => `${o.origin}${h.path}`)),
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

/** An HTML page with the given links (and anything else in `extra`). */
export function page(title: string, links: readonly string[], head = '', extra = ''): RouteResponse & { readonly body: string } {
  return {
    body:
      `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1>` +
      links.map((href) => `<a href="${href}">${href}</a>`).join('\n') +
      extra +
      '</body></html>',
  };
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): RouteResponse {
  return { status, body, headers: { 'content-type': 'text/plain', ...headers } };
}

export function redirect(location: string, status = 302): RouteResponse {
  return { status, headers: { location }, body: '' };
}
