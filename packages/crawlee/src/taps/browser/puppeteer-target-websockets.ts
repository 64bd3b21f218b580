/**
 * The WebSockets of the pages and workers a Puppeteer browser starts (`session-websockets.ts`),
 * through the DevTools session Puppeteer attaches to each: Puppeteer reports a popup only once its
 * first document runs, and a worker once it runs, but its connection announces every new session
 * before Puppeteer handles it, and commands sent then are on the wire ahead of the one Puppeteer
 * lets the target start with. Puppeteer attaches each tab at the top and the tab's page, the page's
 * frames and workers under it: every session under another gets them, as its kind is not known
 * yet, and one that turns out to be neither a page, a frame nor a worker drops the binding. A
 * session at the top is a tab, a service or shared worker, or one of Heed's own (`createSession()`,
 * made to sign). A service worker's there has its `WebSocket` replaced before its first line, but
 * Puppeteer lets go of that session as the worker starts: its sockets ask through the session of
 * Heed's own browser session that attaches to every service worker (`puppeteer.ts`), which comes
 * here as a session under another and stays as long as the worker runs.
 */
import type { CdpSession } from './cdp-fetch.js';
import { guardServiceWorkerStart, guardTargetSockets, SOCKET_BINDING, type Signing, type SocketSession } from './session-websockets.js';
import type { WebSocketSigning } from './websocket-signing.js';

/** A session Puppeteer attached to a new target. */
export type AttachedSession = SocketSession & {
  /** The session of the target this one's was found under (itself at the top). */
  parentSession?(): AttachedSession | undefined;
};

/** `Target.getTargetInfo`'s answer, the fields used here. */
interface TargetInfo {
  readonly type: string;
  readonly targetId: string;
}

/** Puppeteer's `Connection`, the parts used here. */
export interface SessionSource {
  on(event: 'sessionattached', listener: (session: AttachedSession) => void): unknown;
  /** A new session of the caller's on a target. */
  createSession?(targetInfo: TargetInfo): Promise<CdpSession>;
}

/** The kinds of target whose sockets ask through the binding. */
const GUARDED_KINDS = new Set(['page', 'iframe', 'worker', 'service_worker']);

/** Pages guarded here, by target id, so that a crawled page is not guarded a second time; forgotten past a bound. */
const MAX_REMEMBERED = 10_000;

/** Guards the targets of one connection from now on. */
export class TargetSockets {
  private readonly guardedPages = new Set<string>();
  /** What each guarded session is attached to. */
  private readonly targets = new WeakMap<object, Promise<TargetInfo | undefined>>();

  /**
   * From now on, the `WebSocket` of every page and worker `connection` attaches to asks `allow`
   * (its `ws:`/`wss:` URL, and the target's session) before it connects; with `signing`, an
   * allowed one connects with its handshake signed.
   */
  constructor(
    connection: SessionSource,
    allow: (url: string, session: AttachedSession) => Promise<boolean>,
    signing: WebSocketSigning | undefined,
  ) {
    connection.on('sessionattached', (session) => {
      const parent = session.parentSession?.();
      if (parent === undefined || parent === session) return guardServiceWorkerStart(session);
      const info = targetInfoOf(session);
      this.targets.set(session, info);
      // In this turn, before Puppeteer's own handling of the session lets its target start.
      guardTargetSockets(session, (url) => allow(url, session), signing && ownSession(connection, info, signing));
      void this.sorted(session, info);
    });
  }

  /** Whether the page with target id `targetId` was guarded here (it was opened after this guard). */
  has(targetId: string): boolean {
    return this.guardedPages.has(targetId);
  }

  /** The target id of `session`'s target (`''` once it closed). */
  async targetIdOf(session: AttachedSession): Promise<string> {
    let info = this.targets.get(session);
    if (info === undefined) {
      info = targetInfoOf(session);
      this.targets.set(session, info);
    }
    return (await info)?.targetId ?? '';
  }

  /** Forgets a page that closed. */
  forget(targetId: string): void {
    this.guardedPages.delete(targetId);
  }

  /** Notes a page's target id; any other kind than a page, a frame or a worker drops the binding. */
  private async sorted(session: AttachedSession, info: Promise<TargetInfo | undefined>): Promise<void> {
    try {
      const targetInfo = await info;
      if (targetInfo === undefined) return;
      if (targetInfo.type === 'page') {
        if (this.guardedPages.size >= MAX_REMEMBERED) this.guardedPages.clear();
        this.guardedPages.add(targetInfo.targetId);
      }
      if (!GUARDED_KINDS.has(targetInfo.type)) await session.send('Runtime.removeBinding', { name: SOCKET_BINDING });
    } catch {
      // A session that closed, or a target with no runtime.
    }
  }
}

/** What target `session` is attached to; `undefined` once it closed. */
function targetInfoOf(session: AttachedSession): Promise<TargetInfo | undefined> {
  return session.send('Target.getTargetInfo').then(
    (answer) => (answer as { targetInfo: TargetInfo }).targetInfo,
    () => undefined,
  );
}

/** Signing through a session of Heed's own on the target, made when its first socket asks. */
function ownSession(connection: SessionSource, info: Promise<TargetInfo | undefined>, signing: WebSocketSigning): Signing {
  let session: Promise<CdpSession | undefined> | undefined;
  return {
    signing,
    session: () =>
      (session ??= info.then((targetInfo) =>
        targetInfo === undefined || connection.createSession === undefined ? undefined : connection.createSession(targetInfo),
      )),
  };
}
