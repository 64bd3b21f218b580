/** The four origins of the demo site, each with its own robots.txt situation. */
export type DemoOriginName = 'shop' | 'blog' | 'docs' | 'mirror';

/** Every origin name, in the order the demo describes them. */
export const DEMO_ORIGIN_NAMES: readonly DemoOriginName[] = ['shop', 'blog', 'docs', 'mirror'];

/** Base URL (`http://127.0.0.1:<port>`, no trailing slash) of each origin. */
export type DemoOrigins = Readonly<Record<DemoOriginName, string>>;

/** One request the demo site received, logged before it was answered. */
export interface DemoRequest {
  /** Which origin was asked. */
  readonly origin: DemoOriginName;
  readonly method: string;
  /** Path with query string, exactly as requested (`/products/?sort=price`). */
  readonly path: string;
  /** The `User-Agent` header, or `''` when none was sent. */
  readonly userAgent: string;
  /** `Date.now()` when the request arrived. */
  readonly time: number;
  /** The status code the site answered with. */
  readonly status: number;
}

/** Options of {@link startDemoSite}. */
export interface DemoSiteOptions {
  /** Interface to listen on. Default `'127.0.0.1'`. */
  readonly host?: string;
  /** Port per origin; `0` or absent picks a free port. Default: all free ports. */
  readonly ports?: Partial<Record<DemoOriginName, number>>;
  /** Called for every request, after it was logged (e.g. to print progress). Default: none. */
  readonly onRequest?: ((request: DemoRequest) => void) | undefined;
}
