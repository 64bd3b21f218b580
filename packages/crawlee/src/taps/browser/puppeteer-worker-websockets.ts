/**
 * The WebSockets of the workers of a Puppeteer browser's pages. A worker has no "script on new
 * document" and Puppeteer reports it only once it runs, so its `WebSocket` is replaced
 * (`socket-script.ts`) through the DevTools session Puppeteer attaches to it: the connection
 * announces a new session before Puppeteer handles it, and the commands sent then are on the wire
 * ahead of the one that lets the worker start, so they take effect before its first line. Every new
 * session gets them, as its kind is not known yet: a page's or a frame's ignores the script (it
 * runs only in a worker) and drops the binding; a tab's refuses both. With `signature`, an allowed
 * socket's handshake is signed through the worker's session (`websocket-signing.ts`).
 */
import type { CdpSession } from './cdp-fetch.js';
import { webSocketScript } from './socket-script.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** The binding a worker's sockets ask Heed through, and the function it answers by; names no site script would use. */
const BINDING = '__heedWorkerWebSocketAllowed';
const ANSWER = '__heedWorkerWebSocketAnswer';

/**
 * A dedicated or shared worker's `WebSocket`: each socket calls the binding with `{ id, url }` and
 * waits for Heed to call the answer function with its id. Without the binding (the worker started
 * before it was added), every socket is refused. A service worker keeps its own: Puppeteer lets go
 * of its session as soon as it starts, so no answer could come.
 */
const WORKER_SCRIPT = `if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope && typeof ServiceWorkerGlobalScope !== 'function') ${webSocketScript(`(() => {
  const binding = globalThis[${JSON.stringify(BINDING)}];
  if (typeof binding !== 'function') return () => Promise.resolve(false);
  const waiting = new Map();
  let last = 0;
  Object.defineProperty(globalThis, ${JSON.stringify(ANSWER)}, {
    value: (id, allowed) => { const resolve = waiting.get(id); waiting.delete(id); if (resolve) resolve(allowed === true); },
  });
  return (url) => new Promise((resolve) => { const id = ++last; waiting.set(id, resolve); binding(JSON.stringify({ id, url })); });
})()`)}`;

/** `Runtime.bindingCalled`, the fields used here. */
interface BindingCall {
  readonly name: string;
  readonly payload: string;
  readonly executionContextId: number;
}

/** A session Puppeteer attached to a new target. */
export type AttachedSession = CdpSession & {
  on(event: 'Runtime.bindingCalled', listener: (call: BindingCall) => void): unknown;
  /** The session of the target this one's was found under (itself at the top). */
  parentSession?(): AttachedSession | undefined;
};

/** Puppeteer's `Connection`, the part used here. */
export interface SessionSource {
  on(event: 'sessionattached', listener: (session: AttachedSession) => void): unknown;
}

/** Connections whose new sessions are already watched. */
const watched = new WeakSet<object>();

/**
 * Replaces the `WebSocket` of every worker `connection` attaches to from now on: each socket asks
 * `allow` (its `ws:`/`wss:` URL, and the worker's session) before it connects; with `signing`, an
 * allowed one connects with its handshake signed.
 */
export function guardWorkerWebSockets(
  connection: SessionSource,
  allow: (url: string, session: AttachedSession) => Promise<boolean>,
  signing: WebSocketSigning | undefined,
): void {
  if (watched.has(connection)) return;
  watched.add(connection);
  connection.on('sessionattached', (session) => {
    // Not awaited: sent in this turn, before Puppeteer's own handling of the session resumes it.
    session.send('Runtime.addBinding', { name: BINDING }).catch(() => {});
    session.send('Runtime.evaluate', { expression: WORKER_SCRIPT }).catch(() => {});
    session.on('Runtime.bindingCalled', (call) => {
      if (call.name === BINDING) void answer(session, call, allow, signing);
    });
    void dropBindingUnlessWorker(session);
  });
}

/** The kinds of target whose sockets ask through the binding. */
const ASKING = new Set(['worker', 'shared_worker']);

/** A page or frame keeps no binding of Heed's for workers in its documents. */
async function dropBindingUnlessWorker(session: AttachedSession): Promise<void> {
  try {
    const { targetInfo } = (await session.send('Target.getTargetInfo')) as { targetInfo: { type: string } };
    if (!ASKING.has(targetInfo.type)) await session.send('Runtime.removeBinding', { name: BINDING });
  } catch {
    // A session that closed, or a target with no runtime.
  }
}

async function answer(
  session: AttachedSession,
  call: BindingCall,
  allow: (url: string, session: AttachedSession) => Promise<boolean>,
  signing: WebSocketSigning | undefined,
): Promise<void> {
  let asked: unknown;
  try {
    asked = JSON.parse(call.payload);
  } catch {
    return;
  }
  if (typeof asked !== 'object' || asked === null) return;
  const { id, url } = asked as { id?: unknown; url?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof url !== 'string') return;
  const reply = (allowed: boolean) =>
    session
      .send('Runtime.evaluate', {
        expression: `globalThis[${JSON.stringify(ANSWER)}]?.(${id}, ${allowed})`,
        contextId: call.executionContextId,
      })
      .catch(() => {});
  const allowed = await allow(url, session).catch(() => false);
  if (!allowed || signing === undefined) return void reply(allowed);
  await signing.connect(session, url, () => void reply(true));
}
