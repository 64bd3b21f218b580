/**
 * got's hooks, as Heed's navigation hooks of HTTP crawlers add to them for each request.
 */

/** The part of got's options for one request that Heed's hooks read and write. */
export interface GotRequestOptions {
  url?: URL | string;
  headers?: Record<string, unknown>;
}

type BeforeRequestHook = (options: GotRequestOptions) => unknown;
type BeforeRedirectHook = (options: { url?: URL | string }, response: { url?: string }) => unknown;

/** The hooks of a got request, as far as Heed adds to them. */
export interface GotHooks {
  beforeRedirect?: BeforeRedirectHook[];
  beforeRequest?: BeforeRequestHook[];
  [name: string]: unknown;
}

/** Hooks to add, per got hook name. */
export interface AddedGotHooks {
  readonly beforeRequest?: readonly BeforeRequestHook[];
  readonly beforeRedirect?: readonly BeforeRedirectHook[];
}

/**
 * Sets the got `hooks` of `gotOptions` to a copy of them with `added` appended to each list: after
 * the user's hooks and got-scraping's. A copy, because a crawler may hand one hooks object to every
 * request. Copied with `Object.assign`, not a spread: this runs for every request, mostly before V8
 * optimises it, and a spread that adds a key costs several times as much there.
 */
export function addGotHooks(gotOptions: Record<string, unknown>, added: AddedGotHooks): void {
  const hooks = gotOptions['hooks'] as GotHooks | undefined;
  const copy: GotHooks = Object.assign({}, hooks);
  if (added.beforeRequest !== undefined) copy.beforeRequest = appended(hooks?.beforeRequest, added.beforeRequest);
  if (added.beforeRedirect !== undefined) copy.beforeRedirect = appended(hooks?.beforeRedirect, added.beforeRedirect);
  gotOptions['hooks'] = copy;
}

function appended<T>(list: readonly T[] | undefined, added: readonly T[]): T[] {
  return list === undefined ? [...added] : [...list, ...added];
}
