/**
 * The WebSockets of a page or worker, through a DevTools session of it taken while it waits to
 * start: commands sent on that session before it is let go take effect before its first line. A
 * worker has no "script on new document", and a popup is reported by Puppeteer only once its first
 * document runs, so neither can be reached later. The target's `WebSocket` is replaced
 * (`socket-script.ts`): in a worker at once (`Runtime.evaluate`), in a page from its next document on
 * (`Page.addScriptToEvaluateOnNewDocument`). Each socket asks Heed through a binding and waits for
 * Heed's answer; with `signature`, an allowed socket's handshake is signed through a session of
 * Heed's own on the target (`websocket-signing.ts`). A service worker's session is one Heed keeps
 * for as long as the worker runs: the binding is that session's.
 */
import type { CdpSession } from './cdp-fetch.js';
import { webSocketScript } from './socket-script.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** The binding a target's sockets ask Heed through, and the function it answers by; names no site script would use. */
export const SOCKET_BINDING = '__heedSocketAllowed';
const ANSWER = '__heedSocketAnswer';

/**
 * How a socket asks: it calls the binding with `{ id, url }` and waits for Heed to call the answer
 * function with its id. Without the binding (the target started before it was added), every socket
 * is refused.
 */
const ASK = `(() => {
  const binding = globalThis[${JSON.stringify(SOCKET_BINDING)}];
  if (typeof binding !== 'function') return () => Promise.resolve(false);
  const waiting = new Map();
  let last = 0;
  Object.defineProperty(globalThis, ${JSON.stringify(ANSWER)}, {
    value: (id, allowed) => { const resolve = waiting.get(id); waiting.delete(id); if (resolve) resolve(allowed === true); },
  });
  return (url) => new Promise((resolve) => { const id = ++last; waiting.set(id, resolve); binding(JSON.stringify({ id, url })); });
})()`;

/** A worker's `WebSocket` (dedicated, shared or service). In a page's current document it does nothing. */
const WORKER_SCRIPT = `if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope) ${webSocketScript(ASK)}`;

/**
 * How a socket of a worker whose binding comes after its first line asks (a Playwright worker: its
 * session is attached once it runs): it waits for the binding, up to 5 s, then is refused.
 */
const ASK_LATE = `(() => {
  const waiting = new Map();
  let last = 0;
  Object.defineProperty(globalThis, ${JSON.stringify(ANSWER)}, {
    value: (id, allowed) => { const resolve = waiting.get(id); waiting.delete(id); if (resolve) resolve(allowed === true); },
  });
  return (url) => new Promise((resolve) => {
    const id = ++last;
    waiting.set(id, resolve);
    let tries = 0;
    const call = () => {
      const binding = globalThis[${JSON.stringify(SOCKET_BINDING)}];
      if (typeof binding === 'function') return binding(JSON.stringify({ id, url }));
      if (++tries < 100) return setTimeout(call, 50);
      waiting.delete(id);
      resolve(false);
    };
    call();
  });
})()`;

/** The script a worker's own scripts start with (see {@link prefixWorkerScript}). */
const WORKER_PREFIX = `if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope) ${webSocketScript(ASK_LATE)}\n`;

/**
 * A service worker's `WebSocket`, sent on the session the browser library attaches as the worker
 * starts, ahead of the command that lets it start: its sockets ask through the binding of Heed's
 * own session of the worker, attached at the same time (see {@link guardServiceWorkerStart}).
 */
const SERVICE_WORKER_SCRIPT = `if (typeof ServiceWorkerGlobalScope === 'function' && globalThis instanceof ServiceWorkerGlobalScope) ${webSocketScript(ASK_LATE)}`;

/**
 * The longest worker script (decoded) Heed reads to rewrite; a longer one is refused. Generous for
 * real workers (the largest bundled editor and PDF workers are a few MiB), it bounds what one
 * site's script costs this process.
 */
export const MAX_WORKER_SCRIPT_BYTES = 16 * 2 ** 20;

/** A leading byte-order mark and `'use strict'` directive, which must stay first. */
const PROLOGUE = /^(?:\xEF\xBB\xBF)?(?:\s*(['"])use strict\1\s*;?)?/;

/**
 * A worker's script (its bytes) with the socket script put first, after any `'use strict'`
 * directive: the worker's `WebSocket` is replaced before the worker's own first line, with no race.
 * Its sockets ask through the binding that {@link answerSockets} adds once the worker runs. A
 * script that runs elsewhere (prefetched, then used by a page) is left as it was by the check the
 * socket script starts with.
 */
export function prefixWorkerScript(bytes: Buffer): Buffer {
  // Latin-1 keeps one character per byte: the prologue's end is a byte offset.
  const head = bytes.subarray(0, 256).toString('latin1');
  const end = PROLOGUE.exec(head)?.[0].length ?? 0;
  return Buffer.concat([
    bytes.subarray(0, end),
    Buffer.from(end === 0 ? WORKER_PREFIX : `\n${WORKER_PREFIX}`, 'utf8'),
    bytes.subarray(end),
  ]);
}

/** A page's `WebSocket`, in each of its documents. */
const PAGE_SCRIPT = `if (typeof Window === 'function' && globalThis instanceof Window) ${webSocketScript(ASK)}`;

/** `Runtime.bindingCalled`, the fields used here. */
interface BindingCall {
  readonly name: string;
  readonly payload: string;
  readonly executionContextId: number;
}

/**
 * How a target's sockets are signed: through a DevTools session of Heed's own on the target, made
 * when the first socket asks (the extra headers signing sets are a session's, and the session the
 * browser library holds may carry headers of the user's).
 */
export interface Signing {
  readonly signing: WebSocketSigning;
  session(): Promise<CdpSession | undefined>;
}

/** A DevTools session of a page or worker: commands, and the binding's calls. */
export type SocketSession = CdpSession & {
  on(event: 'Runtime.bindingCalled', listener: (call: BindingCall) => void): unknown;
};

/**
 * Sends the commands that replace the `WebSocket` of the page or worker `session` is attached to,
 * without waiting for their answers (a target waiting to start answers none): the caller lets the
 * target go after. Each socket asks `allow` (its `ws:`/`wss:` URL) before it connects; with
 * `signing`, an allowed one connects with its handshake signed. A tab's session refuses them all.
 */
export function guardTargetSockets(session: SocketSession, allow: (url: string) => Promise<boolean>, signing: Signing | undefined): void {
  answerSockets(session, allow, signing);
  session.send('Runtime.evaluate', { expression: WORKER_SCRIPT }).catch(() => {});
  session.send('Page.addScriptToEvaluateOnNewDocument', { source: PAGE_SCRIPT }).catch(() => {});
}

/**
 * Replaces the `WebSocket` of a service worker `session` is attached to, if it is one, before its
 * first line: the command goes out ahead of the one the browser library lets it start with. It
 * adds no binding: a session the library lets go of as the worker starts could answer nothing.
 */
export function guardServiceWorkerStart(session: CdpSession): void {
  session.send('Runtime.evaluate', { expression: SERVICE_WORKER_SCRIPT }).catch(() => {});
}

/**
 * Adds the binding a target's sockets ask through, and answers them: each asks `allow`; with
 * `signing`, an allowed one connects with its handshake signed.
 */
export function answerSockets(session: SocketSession, allow: (url: string) => Promise<boolean>, signing: Signing | undefined): void {
  // The binding's calls are reported only to a session with the runtime on.
  session.send('Runtime.enable').catch(() => {});
  session.send('Runtime.addBinding', { name: SOCKET_BINDING }).catch(() => {});
  session.on('Runtime.bindingCalled', (call) => {
    if (call.name === SOCKET_BINDING) void answer(session, call, allow, signing);
  });
}

async function answer(
  session: SocketSession,
  call: BindingCall,
  allow: (url: string) => Promise<boolean>,
  signing: Signing | undefined,
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
  const own = await signing.session().catch(() => undefined);
  // No session of Heed's (the target went away): the socket goes on as the browser sends it.
  if (own === undefined) return void reply(true);
  await signing.signing.connect(own, asked.url, () => void reply(true));
}

/** The socket a binding call asks about; `undefined` for anything else a site's script could pass. */
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
