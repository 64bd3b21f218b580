/**
 * The WebSockets of a crawled Puppeteer page opened before Heed watched its browser's new targets
 * (`puppeteer-target-websockets.ts` guards every later page and worker from its start): its
 * documents' `WebSocket` replaced (`socket-script.ts`) by `page.evaluateOnNewDocument()`, in every
 * frame of the page, asking Heed through a binding (`page.exposeFunction()`). With `signature`, an
 * allowed socket's handshake is signed the way a Playwright page's is (`websocket-signing.ts`),
 * through a DevTools session of the page.
 */
import type { CdpSession } from './cdp-fetch.js';
import { webSocketScript } from './socket-script.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** The page's binding Heed is asked through; a name no site script would use. */
const BINDING = '__heedWebSocketAllowed';

/** The parts of Puppeteer's `Page` used here. */
export interface SocketPage {
  exposeFunction(name: string, fn: (url: unknown) => Promise<boolean>): Promise<void>;
  evaluateOnNewDocument(source: string): Promise<unknown>;
  target(): { createCDPSession(): Promise<CdpSession> };
  /** Puppeteer 19.7+. */
  createCDPSession?(): Promise<CdpSession>;
}

/** A page's `WebSocket`, asking Heed through the page's binding. */
const PAGE_SCRIPT = webSocketScript(
  `(url) => { const binding = globalThis[${JSON.stringify(BINDING)}]; return typeof binding === 'function' ? binding(url) : Promise.resolve(false); }`,
);

/** Pages whose WebSockets are already put behind Heed (a binding can be added to a page once). */
const guarded = new WeakSet<object>();

/**
 * Replaces the `WebSocket` of `page`'s documents from its next navigation on: each socket asks
 * `allow` (its `ws:`/`wss:` URL) before it connects; with `signing`, an allowed one connects with
 * its handshake signed.
 */
export async function guardPageWebSockets(
  page: SocketPage,
  allow: (url: string) => Promise<boolean>,
  signing: WebSocketSigning | undefined,
): Promise<void> {
  if (guarded.has(page)) return;
  guarded.add(page);
  let session: Promise<CdpSession | undefined> | undefined;
  await page.exposeFunction(BINDING, async (url) => {
    if (typeof url !== 'string' || !(await allow(url).catch(() => false))) return false;
    if (signing === undefined) return true;
    session ??= (page.createCDPSession?.() ?? page.target().createCDPSession()).catch(() => undefined);
    const held = await session;
    // No session of the page (it closed): the socket goes on as the browser sends it.
    if (held === undefined) return true;
    return new Promise<boolean>((resolve) => void signing.connect(held, url, () => resolve(true)));
  });
  await page.evaluateOnNewDocument(PAGE_SCRIPT);
}
