/**
 * Chromium's DevTools `Fetch` domain, the one interception point that sees every request of a
 * target before it goes out: redirect hops that Playwright's `route()` never shows, and, on the
 * browser target, the requests of popups and service workers, which no page-level hook reaches.
 * Several DevTools sessions may enable `Fetch` at once: a request goes out only when every one of
 * them lets it, so this runs beside Playwright's and Puppeteer's own interception.
 */

/** A DevTools session, as Playwright's and Puppeteer's `CDPSession` both offer it. */
export interface CdpSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: 'Fetch.requestPaused', listener: (event: PausedRequest) => void): unknown;
}

/** `Fetch.requestPaused`, the fields used here. */
export interface PausedRequest {
  readonly requestId: string;
  readonly request: { readonly url: string; readonly headers: Readonly<Record<string, string>> };
  /** The frame the request belongs to; a page's main frame has the page target's id. */
  readonly frameId?: string;
  readonly resourceType: string;
  /** Set when the request is a redirect hop: the `requestId` of the request that answered 3xx. */
  readonly redirectedRequestId?: string;
  /** Set when the response is paused (a request continued with `interceptResponse`): its status and headers. */
  readonly responseStatusCode?: number;
  readonly responseHeaders?: readonly { readonly name: string; readonly value: string }[];
  readonly responseErrorReason?: string;
}

/** What becomes of a paused request. */
export type PausedRequestAction = 'continue' | 'block' | 'no-content';

/**
 * Pauses every request `session` sees (with `documentsOnly`, only page and frame documents: each
 * pause is a round trip to this process) and lets `decide` settle it: sent on, failed as blocked
 * by the client, or answered `204 No Content` (a navigation that leaves the page where it is). A
 * `decide` that throws blocks: a request not known to be allowed never goes out. `continued` is
 * told of each request sent on once the browser has taken it (its `Fetch.continueRequest`
 * answered): the closest this process sees to the request leaving, later than `decide` by a round
 * trip to the browser. `headersOf` names the headers a request sent on goes out with besides (or in
 * place of) its own: the bot's user-agent, a Web Bot Auth signature for the request's own URL; set
 * in the same `Fetch.continueRequest`, so they cost no extra round trip.
 */
export async function pauseRequests(
  session: CdpSession,
  documentsOnly: boolean,
  decide: (paused: PausedRequest) => Promise<PausedRequestAction>,
  continued?: (paused: PausedRequest) => void,
  headersOf?: (paused: PausedRequest) => Readonly<Record<string, string>> | undefined,
  workerScript?: (body: Buffer) => Buffer,
): Promise<void> {
  session.on('Fetch.requestPaused', (paused) => {
    const { requestId } = paused;
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) {
      void answerResponse(session, paused, workerScript).catch(() => {});
      return;
    }
    void decide(paused)
      .catch((): PausedRequestAction => 'block')
      .then(async (decision) => {
        if (decision === 'continue') {
          const headers = headersOf?.(paused);
          // A worker's script comes as `Other`: its response is taken, to be rewritten.
          const intercept = workerScript !== undefined && paused.resourceType === 'Other' ? { interceptResponse: true } : {};
          await session.send(
            'Fetch.continueRequest',
            headers === undefined
              ? { requestId, ...intercept }
              : { requestId, headers: withHeaders(paused.request.headers, headers), ...intercept },
          );
          continued?.(paused);
          return;
        }
        if (decision === 'no-content') return session.send('Fetch.fulfillRequest', { requestId, responseCode: 204 });
        return session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
      })
      // The target closed or another session settled the request: nothing left to decide.
      .catch(() => {});
  });
  await session.send('Fetch.enable', { patterns: [documentsOnly ? { urlPattern: '*', resourceType: 'Document' } : { urlPattern: '*' }] });
}

/** JavaScript, as a response's `Content-Type` names it. */
const JAVASCRIPT = /\b(?:java|ecma)script\b/i;

/**
 * A taken response: a script of the resource type a worker's scripts come as (`Other`) is
 * rewritten by `workerScript` (a prefetched script that is not a worker's is too, where the
 * rewrite is to do nothing outside a worker); anything else goes on as it came.
 */
async function answerResponse(
  session: CdpSession,
  paused: PausedRequest,
  workerScript: ((body: Buffer) => Buffer) | undefined,
): Promise<void> {
  const { requestId, responseStatusCode: status, responseHeaders: headers = [] } = paused;
  const type = headers.find((header) => header.name.toLowerCase() === 'content-type')?.value ?? '';
  if (workerScript === undefined || status === undefined || status < 200 || status > 299 || !JAVASCRIPT.test(type)) {
    await session.send('Fetch.continueRequest', { requestId });
    return;
  }
  const { body, base64Encoded } = (await session.send('Fetch.getResponseBody', { requestId })) as { body: string; base64Encoded: boolean };
  const bytes = base64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8');
  await session.send('Fetch.fulfillRequest', {
    requestId,
    responseCode: status,
    // The body given is the decoded one, of a new length.
    responseHeaders: headers.filter((header) => !/^content-(?:length|encoding)$/i.test(header.name)),
    body: workerScript(bytes).toString('base64'),
  });
}

/** The request's `headers` with `added` in place of those of the same names, as DevTools takes them (they replace the request's own). */
function withHeaders(
  headers: Readonly<Record<string, string>>,
  added: Readonly<Record<string, string>>,
): { name: string; value: string }[] {
  const replaced = new Set(Object.keys(added).map((name) => name.toLowerCase()));
  const entries = Object.entries(headers).filter(([name]) => !replaced.has(name.toLowerCase()));
  return [...entries, ...Object.entries(added)].map(([name, value]) => ({ name, value }));
}

/** The target id of the page a session is attached to: the id of its main frame in `Fetch` events. */
export async function targetIdOf(session: CdpSession): Promise<string> {
  const { targetInfo } = (await session.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
  return targetInfo.targetId;
}
