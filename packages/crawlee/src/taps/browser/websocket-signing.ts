/**
 * The Web Bot Auth signature of a WebSocket handshake a Playwright page sends (option `signature`),
 * on Chromium. No request interception sees a handshake (DevTools `Fetch` never pauses one, and
 * Playwright's WebSocket route has no headers to set), but the extra headers of the page's DevTools
 * session reach it (`Network.setExtraHTTPHeaders`, Chromium 151 and later). Those headers are the
 * page's, not the socket's: they are set for one socket at a time, right before Playwright connects
 * it, and taken off once the browser is about to send its handshake, so each handshake carries the
 * signature made for its own URL and no other request of the page is sent with it. (Every other
 * request of a signed page is paused and goes on with headers of its own, which replace these.)
 */
import type { CdpSession } from './cdp-fetch.js';
import { requestSigning } from '../sign-requests.js';

/** How long a socket's headers stay set when the browser never announces its handshake (a page closing). */
const HANDSHAKE_WAIT_MS = 10_000;

/** `Network.webSocketCreated` and `Network.webSocketWillSendHandshakeRequest`, the fields used here. */
interface SocketEvent {
  readonly requestId: string;
  readonly url?: string;
}

/** A DevTools session that can also stop listening (Playwright's and Puppeteer's both can). */
type ListeningSession = CdpSession & {
  on(event: string, listener: (event: SocketEvent) => void): unknown;
  off?(event: string, listener: (event: SocketEvent) => void): unknown;
};

/** The signing of WebSocket handshakes under `options` (`signature`, `maxCrawlPrice`); `undefined` without `signature`. */
export function webSocketSigningFor(options: Parameters<typeof requestSigning>[0]): WebSocketSigning | undefined {
  const sign = requestSigning(options);
  return sign && new WebSocketSigning(sign);
}

/** Signs the handshakes of the WebSockets of pages whose DevTools session Heed holds. */
export class WebSocketSigning {
  /** Per session: the socket being connected, which the next one waits for. */
  private readonly turns = new WeakMap<object, Promise<void>>();

  /** @param sign the signature headers of a request to a URL */
  constructor(private readonly sign: (url: string) => Readonly<Record<string, string>>) {}

  /**
   * Calls `connect` (Playwright's `connectToServer()`) with the signature for `url` set on
   * `session`'s extra headers; resolves once the handshake has taken them (or the wait is over).
   */
  connect(session: CdpSession, url: string, connect: () => void): Promise<void> {
    const previous = this.turns.get(session) ?? Promise.resolve();
    const turn = previous.then(() => this.connectSigned(session as ListeningSession, url, connect));
    const settled = turn.catch(() => {});
    this.turns.set(session, settled);
    return settled;
  }

  private async connectSigned(session: ListeningSession, url: string, connect: () => void): Promise<void> {
    const sent = handshakeSent(session, url);
    try {
      await session.send('Network.enable');
      await session.send('Network.setExtraHTTPHeaders', { headers: this.sign(url) });
    } catch {
      // The page closed, or this browser has no such command: the socket goes on as it would.
      sent.stop();
      connect();
      return;
    }
    connect();
    await sent.done;
    sent.stop();
    // Off again: the page's other requests (each signed for itself) must not carry this signature,
    // and its session need not report every request to this process.
    await session.send('Network.setExtraHTTPHeaders', { headers: {} }).catch(() => {});
    await session.send('Network.disable').catch(() => {});
  }
}

/** Resolves once `session` announces the handshake of a socket to `url`, or after {@link HANDSHAKE_WAIT_MS}. */
function handshakeSent(session: ListeningSession, url: string): { done: Promise<void>; stop(): void } {
  const target = normalized(url);
  const sockets = new Set<string>();
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const created = (event: SocketEvent) => {
    if (event.url !== undefined && normalized(event.url) === target) sockets.add(event.requestId);
  };
  const sending = (event: SocketEvent) => {
    if (sockets.has(event.requestId)) resolve();
  };
  const timer = setTimeout(resolve, HANDSHAKE_WAIT_MS);
  session.on('Network.webSocketCreated', created);
  session.on('Network.webSocketWillSendHandshakeRequest', sending);
  return {
    done,
    stop: () => {
      clearTimeout(timer);
      resolve();
      session.off?.('Network.webSocketCreated', created);
      session.off?.('Network.webSocketWillSendHandshakeRequest', sending);
    },
  };
}

function normalized(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
