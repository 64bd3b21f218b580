/**
 * The WebSockets of the workers of a Puppeteer browser (`worker-websockets.ts`), through the
 * DevTools session Puppeteer attaches to each worker. Puppeteer reports a worker only once it runs,
 * but its connection announces every new session before Puppeteer handles it: commands sent then
 * are on the wire ahead of the one Puppeteer lets the target start with. Every new session gets
 * them, as its kind is not known yet: a page's or a frame's ignores the script and drops the
 * binding; a tab's refuses both.
 */
import { guardWorker, WORKER_BINDING, type WorkerSession } from './worker-websockets.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** A session Puppeteer attached to a new target. */
export type AttachedSession = WorkerSession & {
  /** The session of the target this one's was found under (itself at the top). */
  parentSession?(): AttachedSession | undefined;
};

/** Puppeteer's `Connection`, the part used here. */
export interface SessionSource {
  on(event: 'sessionattached', listener: (session: AttachedSession) => void): unknown;
}

/** The kinds of target whose sockets ask through the binding. */
const WORKERS = new Set(['worker', 'shared_worker']);

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
    // In this turn, before Puppeteer's own handling of the session lets its target start.
    guardWorker(session, (url) => allow(url, session), signing);
    void dropBindingUnlessWorker(session);
  });
}

/** A page or frame keeps no binding of Heed's for workers in its documents. */
async function dropBindingUnlessWorker(session: AttachedSession): Promise<void> {
  try {
    const { targetInfo } = (await session.send('Target.getTargetInfo')) as { targetInfo: { type: string } };
    if (!WORKERS.has(targetInfo.type)) await session.send('Runtime.removeBinding', { name: WORKER_BINDING });
  } catch {
    // A session that closed, or a target with no runtime.
  }
}
