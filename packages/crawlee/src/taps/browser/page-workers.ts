/**
 * The dedicated workers of a page, and the service workers of its origin, reached through a
 * DevTools session of the page (Playwright's `newCDPSession()`), which addresses its own target
 * only: auto-attached without flattening, a worker's session is spoken to through the page's
 * (`Target.sendMessageToTarget`, its answers and events in `Target.receivedMessageFromTarget`). The
 * worker is not held for it (Playwright lets a service worker start at once, from a session of its
 * own): what must come before its first line is put in its script (`prefixWorkerScript()`), not
 * sent here.
 */
import type { CdpSession } from './cdp-fetch.js';
import type { SocketSession } from './session-websockets.js';

/** `Target.attachedToTarget`, `Target.receivedMessageFromTarget`, `Target.detachedFromTarget`: the fields used here. */
interface TargetEvent {
  readonly sessionId: string;
  readonly targetInfo?: { readonly type: string };
  readonly message?: string;
}

/** A page's session that can report its targets' events. */
export type ParentSession = CdpSession & { on(event: string, listener: (event: TargetEvent) => void): unknown };

/** Answers a worker's session waits for at most: a worker that never answers must not grow it without end. */
const MAX_WAITING = 1_000;

/**
 * Calls `onWorker` with a session of each dedicated worker `page` starts from now on, and of each
 * service worker of its origin the browser runs. Rejects where the browser cannot (no such
 * commands): the page's workers then go unseen.
 */
export async function watchWorkers(page: ParentSession, onWorker: (worker: SocketSession) => void): Promise<void> {
  const workers = new Map<string, WorkerChannel>();
  page.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
    if (targetInfo?.type !== 'worker' && targetInfo?.type !== 'service_worker') {
      // Another kind the filter let through (a browser that ignores it): not ours to hold.
      void page.send('Target.detachFromTarget', { sessionId }).catch(() => {});
      return;
    }
    const worker = new WorkerChannel(page, sessionId);
    workers.set(sessionId, worker);
    onWorker(worker);
  });
  page.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => {
    if (message !== undefined) workers.get(sessionId)?.receive(message);
  });
  page.on('Target.detachedFromTarget', ({ sessionId }) => {
    workers.get(sessionId)?.close();
    workers.delete(sessionId);
  });
  await page.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
    filter: [{ type: 'worker' }, { type: 'service_worker' }],
  });
}

type Listener = (event: never) => void;

/** A worker's session, spoken to through its page's. */
class WorkerChannel {
  private lastId = 0;
  private readonly waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private closed = false;

  constructor(
    private readonly page: ParentSession,
    private readonly sessionId: string,
  ) {}

  send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`${method}: the worker is gone`));
    if (this.waiting.size >= MAX_WAITING) return Promise.reject(new Error(`${method}: the worker answers nothing`));
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.page
        .send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) })
        .catch((error: unknown) => {
          this.waiting.delete(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  }

  on(event: string, listener: Listener): this {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  /** A message of the worker's session: an answer to one of its commands, or an event. */
  receive(text: string): void {
    let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { message?: unknown } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      const reason = message.error?.message;
      if (message.error !== undefined) waiting?.reject(new Error(typeof reason === 'string' ? reason : 'protocol error'));
      else waiting?.resolve(message.result);
      return;
    }
    if (typeof message.method !== 'string') return;
    for (const listener of this.listeners.get(message.method) ?? []) (listener as (params: unknown) => void)(message.params);
  }

  close(): void {
    this.closed = true;
    for (const waiting of this.waiting.values()) waiting.reject(new Error('the worker is gone'));
    this.waiting.clear();
    this.listeners.clear();
  }
}
