/**
 * got's hooks, as Heed's navigation hooks of HTTP crawlers add to them for each request.
 */

/** The hooks of a got request, as far as Heed adds to them. */
export interface GotHooks {
  beforeRedirect?: ((options: { url?: URL | string }, response: { url?: string }) => unknown)[];
  beforeRequest?: ((options: { url?: URL | string }) => unknown)[];
  [name: string]: unknown;
}

type HookName = 'beforeRequest' | 'beforeRedirect';

/**
 * Sets the got `hooks` of `gotOptions` to a copy of them with `hook` added last to the `name` list:
 * after the user's hooks and got-scraping's. A copy, because a crawler may hand one hooks object to
 * every request. Copied with `Object.assign`, not a spread: this runs for every request, mostly
 * before V8 optimises it, and a spread that adds a key costs several times as much there.
 */
export function addGotHook<N extends HookName>(gotOptions: Record<string, unknown>, name: N, hook: NonNullable<GotHooks[N]>[number]): void {
  const hooks = gotOptions['hooks'] as GotHooks | undefined;
  const copy: GotHooks = Object.assign({}, hooks);
  const list = hooks?.[name] as unknown[] | undefined;
  copy[name] = (list === undefined ? [hook] : [...list, hook]) as GotHooks[N];
  gotOptions['hooks'] = copy;
}
