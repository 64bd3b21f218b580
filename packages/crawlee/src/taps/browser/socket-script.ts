/**
 * The `WebSocket` a Puppeteer page or worker sees once Heed guards it: the browser's own behind
 * Heed's answer. DevTools offers no point where a handshake can be paused or refused (`Fetch` never
 * sees one) and Puppeteer has no WebSocket routing, so, as Playwright's `routeWebSocket()` does, the
 * global `WebSocket` is replaced before any script of the document or worker runs.
 */

/**
 * Script that replaces `globalThis.WebSocket` by one that asks Heed first: `ask` is the source of
 * a function from the socket's `ws:`/`wss:` URL to a promise of whether it may connect. A socket Heed
 * allows is connected by the browser's own `WebSocket`; a refused one, or one Heed could not be
 * asked about, fails as a socket whose connection failed (an `error`, then a `close` with code
 * 1006) and is never requested. It behaves as the browser's does (its URL checks and errors, its
 * states and events, `send()` refused while connecting); a socket closed before Heed answered is
 * never requested.
 */
export const webSocketScript = (ask: string): string => `(() => {
  const Native = globalThis.WebSocket;
  const GUARDED = Symbol.for('heed.websocket');
  // Once per document: a page guarded through two sessions asks through the first only.
  if (typeof Native !== 'function' || typeof EventTarget !== 'function' || Native[GUARDED] === true) return;
  const CONNECTING = 0, CLOSING = 2, CLOSED = 3;
  const ask = ${ask};
  const invalid = (message) => new DOMException("Failed to construct 'WebSocket': " + message, 'SyntaxError');
  class WebSocket extends EventTarget {
    #url; #native = null; #state = CONNECTING; #binaryType = 'blob'; #handlers = {};
    constructor(url, protocols) {
      super();
      let parsed;
      try { parsed = new URL(String(url), typeof document === 'object' ? document.baseURI : location.href); } catch { throw invalid("The URL '" + String(url) + "' is invalid."); }
      if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
      else if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
      if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
        throw invalid("The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. '" + parsed.protocol.slice(0, -1) + "' is not allowed.");
      if (parsed.hash !== '') throw invalid("The URL contains a fragment identifier ('" + parsed.hash + "'). Fragment identifiers are not allowed in WebSocket URLs.");
      this.#url = parsed.href;
      ask(this.#url).then((allowed) => this.#decided(allowed === true, protocols), () => this.#decided(false, protocols));
    }
    #decided(allowed, protocols) {
      if (this.#state !== CONNECTING) return;
      if (!allowed) return this.#fail();
      let native;
      try { native = protocols === undefined ? new Native(this.#url) : new Native(this.#url, protocols); } catch { return this.#fail(); }
      native.binaryType = this.#binaryType;
      this.#native = native;
      native.addEventListener('open', () => this.dispatchEvent(new Event('open')));
      native.addEventListener('message', (e) => this.dispatchEvent(new MessageEvent('message', { data: e.data, origin: e.origin, lastEventId: e.lastEventId })));
      native.addEventListener('error', () => this.dispatchEvent(new Event('error')));
      native.addEventListener('close', (e) => this.dispatchEvent(new CloseEvent('close', { code: e.code, reason: e.reason, wasClean: e.wasClean })));
    }
    #fail() {
      this.#state = CLOSED;
      this.dispatchEvent(new Event('error'));
      this.dispatchEvent(new CloseEvent('close', { code: 1006, reason: '', wasClean: false }));
    }
    get url() { return this.#url; }
    get readyState() { return this.#native === null ? this.#state : this.#native.readyState; }
    get protocol() { return this.#native === null ? '' : this.#native.protocol; }
    get extensions() { return this.#native === null ? '' : this.#native.extensions; }
    get bufferedAmount() { return this.#native === null ? 0 : this.#native.bufferedAmount; }
    get binaryType() { return this.#binaryType; }
    set binaryType(value) {
      if (value !== 'blob' && value !== 'arraybuffer') return;
      this.#binaryType = value;
      if (this.#native !== null) this.#native.binaryType = value;
    }
    send(data) {
      if (this.readyState === CONNECTING) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
      if (this.#native !== null) this.#native.send(data);
    }
    close(code, reason) {
      if (this.#native !== null) return code === undefined ? this.#native.close() : this.#native.close(code, reason);
      if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999))
        throw new DOMException("Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. " + code + ' is neither.', 'InvalidAccessError');
      if (this.#state !== CONNECTING) return;
      this.#state = CLOSING;
      setTimeout(() => this.#fail(), 0);
    }
    #handler(type) { return this.#handlers[type] ? this.#handlers[type].handler : null; }
    #setHandler(type, handler) {
      const held = this.#handlers[type];
      if (held) this.removeEventListener(type, held.listener);
      if (typeof handler !== 'function') { delete this.#handlers[type]; return; }
      const listener = (event) => handler.call(this, event);
      this.#handlers[type] = { handler, listener };
      this.addEventListener(type, listener);
    }
    get onopen() { return this.#handler('open'); }
    set onopen(f) { this.#setHandler('open', f); }
    get onmessage() { return this.#handler('message'); }
    set onmessage(f) { this.#setHandler('message', f); }
    get onerror() { return this.#handler('error'); }
    set onerror(f) { this.#setHandler('error', f); }
    get onclose() { return this.#handler('close'); }
    set onclose(f) { this.#setHandler('close', f); }
  }
  const states = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 };
  for (const [name, value] of Object.entries(states)) {
    Object.defineProperty(WebSocket, name, { value, enumerable: true });
    Object.defineProperty(WebSocket.prototype, name, { value, enumerable: true });
  }
  Object.defineProperty(WebSocket, GUARDED, { value: true });
  Object.defineProperty(globalThis, 'WebSocket', { value: WebSocket, writable: true, configurable: true, enumerable: false });
})();`;
