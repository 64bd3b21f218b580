/**
 * The WebSockets of a worker, through a DevTools session of the worker taken while it waits to
 * start. A worker has no "script on new document", and neither Playwright's WebSocket routes nor
 * Puppeteer's hooks reach it, so its `WebSocket` is replaced (`socket-script.ts`) by commands sent
 * on that session before the worker is let go: they take effect before its first line. Each socket
 * asks Heed through a binding and waits for Heed's answer; with `signature`, an allowed socket's
 * handshake is signed through the same session (`websocket-signing.ts`).
 */
import type { CdpSession } from './cdp-fetch.js';
import { webSocketScript } from './socket-script.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** The binding a worker's sockets ask Heed through, and the function it answers by; names no site script would use. */
export const WORKER_BINDING = '__heedWorkerWebSocketAllowed';
const ANSWER = '__heedWorkerWebSocketAnswer';

/**
 * A dedicated or shared worker's `WebSocket`: each socket calls the binding with `{ id, url }` and
 * waits for Heed to call the answer function with its id. Without the binding (the worker started
 * before it was added), every socket is refused. Elsewhere (a page, a frame, a service worker,
 * whose session the browser library lets go of as soon as it starts) the script does nothing.
 */
const WORKER_SCRIPT = `if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope && typeof ServiceWorkerGlobalScope !== 'function') ${webSocketScript(`(() => {
  const binding = globalThis[${JSON.stringify(WORKER_BINDING)}];
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

/** A DevTools session of a worker: commands, and the binding's calls. */
export type WorkerSession = CdpSession & {
  on(event: 'Runtime.bindingCalled', listener: (call: BindingCall) => void): unknown;
};

/**
 * Sends the commands that replace the `WebSocket` of the worker `session` is attached to, without
 * waiting for their answers (a worker waiting to start answers none): the caller lets the worker go
 * after. Each socket asks `allow` (its `ws:`/`wss:` URL) before it connects; with `signing`, an
 * allowed one connects with its handshake signed.
 */
export function guardWorker(session: WorkerSession, allow: (url: string) => Promise<boolean>, signing: WebSocketSigning | undefined): void {
  session.send('Runtime.addBinding', { name: WORKER_BINDING }).catch(() => {});
  session.send('Runtime.evaluate', { expression: WORKER_SCRIPT }).catch(() => {});
  session.on('Runtime.bindingCalled', (call) => {
    if (call.name === WORKER_BINDING) void answer(session, call, allow, signing);
  });
}

async function answer(
  session: WorkerSession,
  call: BindingCall,
  allow: (url: string) => Promise<boolean>,
  signing: WebSocketSigning | undefined,
): Promise<void> {
  const asked = askedOf(call.payload);
  if (asked === undefined) return;
  const reply = (allowed: boolean) =>
    session
      .send('Runtime.evaluate', {
        expression: `globalThis[${JSON.stringify(ANSWER)}]?.(${asked.id}, ${allowed})`,
        contextId: call.executionContextId,
      })
      .catch(() => {});
  const allowed = await allow(asked.url).catch(() => false);
  if (!allowed || signing === undefined) return void reply(allowed);
  await signing.connect(session, asked.url, () => void reply(true));
}

/** The socket a binding call asks about; `undefined` for anything else a script of the worker's site could pass. */
function askedOf(payload: string): { id: number; url: string } | undefined {
  let asked: unknown;
  try {
    asked = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof asked !== 'object' || asked === null) return undefined;
  const { id, url } = asked as { id?: unknown; url?: unknown };
  return typeof id === 'number' && Number.isSafeInteger(id) && typeof url === 'string' ? { id, url } : undefined;
}
