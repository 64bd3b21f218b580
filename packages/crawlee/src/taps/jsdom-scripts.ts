/**
 * What jsdom sends from its own HTTP client, which no option or documented hook of jsdom reaches:
 * with `runScripts` a page's `XMLHttpRequest` and `WebSocket` connections, and the redirect hops
 * jsdom follows itself (of an XHR, and of a stylesheet, frame or script its resource loader
 * fetches). With `blockSubresources`, each is judged inside the page scope (`jsdom-scope.ts`) by the
 * sub-resource checkpoint, against its own origin's robots.txt, before it is sent; a disallowed one
 * fails as a network error does in a browser and is reported at stage `subresource`.
 *
 * Patch points in jsdom's internals, found in the jsdom the crawler loads (no `exports` map
 * keeps them out) and checked against jsdom 26.1 (Crawlee 3.13 to 3.18 and 4.0.0-rc.0):
 *
 * - `XMLHttpRequestImpl.prototype.send` (`living/xhr/XMLHttpRequest-impl.js`). An asynchronous
 *   request is held, `send` flagged so that the script cannot send it twice, until the checkpoint
 *   answers; then jsdom's own `send` runs, or the request ends as jsdom ends a failed one
 *   (`xhr-utils`' `dispatchError`: `error`, `loadend`). A synchronous one cannot wait: it goes only
 *   when its origin's verdict is at hand and allows it; else it fails as jsdom fails one
 *   (`NetworkError`), and a disallowed one is reported once its verdict is read.
 * - the `init` hook of `living/websockets/WebSocket-impl.js`, which jsdom's generated wrapper calls
 *   right after constructing each socket. The socket connects a promise turn later, so the verdict
 *   must be at hand: a socket not known to be allowed is marked as one that failed before
 *   connecting (`_requiredToFail`: the page sees `error`, then `close` 1006), and reported when its
 *   verdict says disallowed; one refused only for want of its origin's robots.txt is logged.
 * - `Request.prototype._processResponse` (`living/helpers/http-request.js`), where jsdom's client
 *   meets a redirect before it follows it: the hop is held until checked; a disallowed one ends the
 *   request with an error (the XHR's `error`, the element's `error`) instead.
 *
 * - `Request.prototype._performRequest` (the same module), which builds each request jsdom's client
 *   sends, the first and each redirect hop: with `signature`, it is built with the signature
 *   headers for its own URL (the loader's stylesheets, frames and scripts, XHR), as got's hook signs
 *   a page.
 * - the `_req` field of the `ws` client jsdom opens its sockets with (`lib/websocket.js`, ws 8):
 *   jsdom gives `ws` no hook, and `ws` builds each handshake and sends it inside one call, but it
 *   keeps the handshake's `ClientRequest` in that field between the two, before `end()` sends its
 *   headers. An accessor on its prototype takes each handshake there and, with `signature`, sets the
 *   signature headers for the socket's own URL.
 *
 * Each is patched once per jsdom, and acts only inside a page scope: the checks with
 * `blockSubresources`, the signature with `signature`.
 */
import { createRequire } from 'node:module';
import type { Checked } from '../guard/checkpoints.js';
import { pageScope, type PageScope } from './jsdom-scope.js';

/** `XMLHttpRequestImpl` as far as it is used. */
interface XhrImpl {
  readyState: number;
  readonly _globalObject: unknown;
  readonly flag: { uri?: string; synchronous?: boolean };
  readonly properties: { send: boolean; error?: unknown };
}
type Send = (this: XhrImpl, body: unknown) => void;

/** `WebSocketImpl` as far as it is used. */
interface SocketImpl {
  readonly url: string;
  _requiredToFail: boolean;
}

/** jsdom's HTTP client (`living/helpers/http-request.js`) as far as it is used: an EventEmitter. */
interface ClientRequest {
  readonly currentURL: string;
  _requestOptions: { readonly headers?: Record<string, unknown> };
  readonly followRedirects?: boolean;
  readonly _currentRequest?: { readonly destroyed?: boolean };
  emit(event: 'error', error: Error): boolean;
}
interface IncomingResponse {
  readonly statusCode?: number;
  readonly headers: Record<string, unknown>;
  destroy(): void;
}
type ProcessResponse = (this: ClientRequest, response: IncomingResponse) => void;

interface JsdomClient {
  readonly xhr: { prototype: { send: Send } };
  readonly xhrUtils: { dispatchError(xhr: XhrImpl): void };
  readonly domException: { create(globalObject: unknown, args: [string, string]): Error };
  readonly webSocket: { init?: (impl: SocketImpl) => void };
  readonly request: { prototype: { _processResponse: ProcessResponse; _performRequest: (this: ClientRequest) => void } };
  /** The `ws` client jsdom's sockets are made with (its `WebSocket` class); `undefined` when it has no `_req` to take. */
  readonly socketClient: { prototype: object } | undefined;
}

/** A handshake `ws` is about to send: Node's `ClientRequest`, its headers still writable. */
interface Handshake {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

const OPENED = 1;
const patched = new WeakSet<object>();
/** The send in progress of each held XHR: a new `open()` and `send()` replaces it, and the held one is dropped. */
const heldSends = new WeakMap<XhrImpl, object>();

/**
 * Patches the HTTP client of the jsdom `require` loads (see the header); `false` when one of its
 * patch points is not there (another jsdom), and then nothing is patched.
 */
export function patchJsdomClient(require: NodeJS.Require): boolean {
  const client = jsdomClient(require);
  if (client === undefined) return false;
  if (patched.has(client.xhr)) return true;
  patched.add(client.xhr);
  patchXhr(client);
  patchWebSocket(client);
  patchRedirects(client);
  patchSigning(client);
  patchSocketSigning(client);
  return true;
}

function jsdomClient(require: NodeJS.Require): JsdomClient | undefined {
  const lib = 'jsdom/lib/jsdom/living/';
  try {
    const client: JsdomClient = {
      xhr: (require(`${lib}xhr/XMLHttpRequest-impl.js`) as { implementation: JsdomClient['xhr'] }).implementation,
      xhrUtils: require(`${lib}xhr/xhr-utils.js`) as JsdomClient['xhrUtils'],
      domException: require(`${lib}generated/DOMException.js`) as JsdomClient['domException'],
      webSocket: require(`${lib}websockets/WebSocket-impl.js`) as JsdomClient['webSocket'],
      request: require(`${lib}helpers/http-request.js`) as JsdomClient['request'],
      socketClient: socketClientOf(require),
    };
    const found =
      typeof client.xhr?.prototype?.send === 'function' &&
      typeof client.xhrUtils.dispatchError === 'function' &&
      typeof client.domException.create === 'function' &&
      typeof (client.webSocket as { implementation?: unknown }).implementation === 'function' &&
      typeof client.request?.prototype?._processResponse === 'function' &&
      typeof client.request.prototype._performRequest === 'function';
    return found ? client : undefined;
  } catch {
    return undefined;
  }
}

/** The `ws` that jsdom's `WebSocket-impl.js` requires (jsdom's own dependency), when it is the client this module knows. */
function socketClientOf(require: NodeJS.Require): JsdomClient['socketClient'] {
  try {
    const fromJsdom = createRequire(require.resolve('jsdom/lib/jsdom/living/websockets/WebSocket-impl.js'));
    const client = fromJsdom('ws') as unknown;
    const version = (fromJsdom('ws/package.json') as { version?: string }).version ?? '';
    return typeof client === 'function' && /^8\./.test(version) ? client : undefined;
  } catch {
    return undefined;
  }
}

/** The page scope a request of jsdom's client is judged in, or `undefined` (not a crawler's page, or no `blockSubresources`). */
function judging(url: string | undefined): PageScope | undefined {
  const scope = pageScope.getStore();
  if (scope === undefined || !scope.guard.options.blockSubresources || url === undefined || !/^(https?|wss?):/i.test(url)) return undefined;
  return scope;
}

/** A WebSocket's URL as the http(s) URL whose origin's robots.txt decides it. */
const httpUrlOf = (url: string) => url.replace(/^ws/i, 'http');

/**
 * A request that had to be decided on the spot and was refused because its verdict was not at hand:
 * once read, a disallowed one is reported, an allowed one logged (it was refused for want of its
 * origin's robots.txt only).
 */
function reportLater(scope: PageScope, url: string, what: string): void {
  void scope.guard.checkpoints.subresource(url, scope.pageUrl()).then(async (skip) => {
    if (skip !== undefined) await scope.guard.skips.report(skip);
    else
      scope.guard.log.debug(
        `RobotsPlugin: ${what} to ${url} was refused: it is decided as it is made, and its origin's robots.txt had not been read yet.`,
      );
  });
}

function patchXhr({ xhr, xhrUtils, domException }: JsdomClient): void {
  const send = xhr.prototype.send;
  xhr.prototype.send = function (this: XhrImpl, body: unknown) {
    const uri = this.flag.uri;
    const scope = judging(uri);
    // jsdom's own checks (not opened, already sent) throw as they would.
    if (scope === undefined || uri === undefined || this.readyState !== OPENED || this.properties.send) return send.call(this, body);
    const fail = (message: string) => {
      this.properties.error = message;
      xhrUtils.dispatchError(this);
    };
    if (this.flag.synchronous === true) {
      const now = scope.guard.checkpoints.subresourceNow(uri, scope.pageUrl());
      if (now === undefined) return send.call(this, body);
      if (now === 'not at hand') reportLater(scope, uri, 'a synchronous XMLHttpRequest');
      else void scope.guard.skips.report(now);
      const message = `${uri} not loaded: robots.txt disallows it, or was not read yet`;
      fail(message);
      throw domException.create(this._globalObject, [message, 'NetworkError']);
    }
    const held = {};
    heldSends.set(this, held);
    this.properties.send = true;
    void scope.guard.checkpoints.subresource(uri, scope.pageUrl()).then(
      async (skip: Checked) => {
        // Aborted, or opened again, while the check ran: that request is gone.
        if (heldSends.get(this) !== held || this.readyState !== OPENED || !this.properties.send) return;
        heldSends.delete(this);
        if (skip !== undefined) {
          await scope.guard.skips.report(skip);
          fail(`${uri} not loaded: robots.txt disallows it`);
          return;
        }
        this.properties.send = false;
        try {
          send.call(this, body);
        } catch {
          // The window closed meanwhile: jsdom refuses the send, as it would have then.
        }
      },
      () => fail(`${uri} not loaded: checking robots.txt failed`),
    );
  };
}

function patchWebSocket({ webSocket }: JsdomClient): void {
  const init = webSocket.init;
  webSocket.init = (impl: SocketImpl) => {
    init?.(impl);
    const scope = judging(impl.url);
    if (scope === undefined) return;
    const url = httpUrlOf(impl.url);
    const now = scope.guard.checkpoints.subresourceNow(url, scope.pageUrl());
    if (now === undefined) return;
    // Not yet connecting: it fails as a socket whose connection failed.
    impl._requiredToFail = true;
    if (now === 'not at hand') reportLater(scope, url, 'a WebSocket');
    else void scope.guard.skips.report(now);
  };
}

function patchRedirects({ request }: JsdomClient): void {
  const processResponse = request.prototype._processResponse;
  request.prototype._processResponse = function (this: ClientRequest, response: IncomingResponse) {
    const location = response.headers['location'];
    const status = response.statusCode ?? 0;
    const scope = judging(this.currentURL);
    if (
      scope === undefined ||
      this.followRedirects !== true ||
      typeof location !== 'string' ||
      location === '' ||
      status < 300 ||
      status >= 400
    )
      return processResponse.call(this, response);
    let target: string;
    try {
      target = new URL(location, this.currentURL).href;
    } catch {
      return processResponse.call(this, response);
    }
    void scope.guard.checkpoints.subresource(target, scope.pageUrl()).then(
      async (skip: Checked) => {
        // Aborted while the hop was checked (the window closed): nothing more is sent.
        if (this._currentRequest?.destroyed === true) return response.destroy();
        if (skip === undefined) return processResponse.call(this, response);
        response.destroy();
        await scope.guard.skips.report(skip);
        this.emit('error', new Error(`redirect to ${target} not followed: robots.txt disallows it`));
      },
      () => {
        response.destroy();
        this.emit('error', new Error(`redirect to ${target} not followed: checking robots.txt failed`));
      },
    );
  };
}

function patchSigning({ request }: JsdomClient): void {
  const perform = request.prototype._performRequest;
  request.prototype._performRequest = function (this: ClientRequest) {
    const sign = pageScope.getStore()?.sign;
    if (sign === undefined || !/^https?:/i.test(this.currentURL)) return perform.call(this);
    // Built from options with the signature for this hop's URL; the options jsdom keeps (its
    // redirects add a Referer to their headers) stay unsigned, so each hop is signed afresh.
    const options = this._requestOptions;
    this._requestOptions = { ...options, headers: { ...options.headers, ...sign(this.currentURL) } };
    try {
      perform.call(this);
    } finally {
      this._requestOptions = options;
    }
  };
}

/**
 * Whether the WebSocket handshakes of the jsdom `require` loads are signed: `false` when its `ws`
 * is not the client this module knows, and its sockets go unsigned.
 */
export function signsJsdomSockets(require: NodeJS.Require): boolean {
  const client = socketClientOf(require);
  return client !== undefined && Object.getOwnPropertyDescriptor(client.prototype, '_req')?.set !== undefined;
}

/** Where a socket keeps its handshake once the accessor has taken it. */
const HANDSHAKE = Symbol('heed.handshake');

function patchSocketSigning({ socketClient }: JsdomClient): void {
  if (socketClient === undefined || Object.getOwnPropertyDescriptor(socketClient.prototype, '_req') !== undefined) return;
  type Socket = { readonly _url?: string; readonly _isServer?: boolean; [HANDSHAKE]?: unknown };
  Object.defineProperty(socketClient.prototype, '_req', {
    configurable: true,
    get(this: Socket) {
      return this[HANDSHAKE];
    },
    set(this: Socket, request: unknown) {
      this[HANDSHAKE] = request;
      const sign = pageScope.getStore()?.sign;
      if (sign === undefined || this._isServer === true || !isHandshake(request) || request.headersSent) return;
      const url = this._url;
      if (url === undefined || !/^wss?:/i.test(url)) return;
      for (const [name, value] of Object.entries(sign(url))) request.setHeader(name, value);
    },
  });
}

function isHandshake(request: unknown): request is Handshake {
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof (request as Partial<Handshake>).setHeader === 'function' &&
    typeof (request as Partial<Handshake>).headersSent === 'boolean'
  );
}
