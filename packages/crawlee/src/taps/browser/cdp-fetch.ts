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

/**
 * How the scripts a worker runs are rewritten (`Other` requests for any type answered 2xx with JavaScript):
 * `rewrite` takes the script's decoded bytes. A script longer than `maxBytes` once decoded is
 * refused, unread past that bound, and named to `refused`: a site's script is never held whole
 * in this process beyond it, and a worker that would run unguarded does not run.
 */
export interface WorkerScripts {
  readonly rewrite: (body: Buffer) => Buffer;
  readonly maxBytes: number;
  readonly refused: (url: string, bytes: number) => void;
}

/** What becomes of a paused request. */
export type PausedRequestAction = 'continue' | 'block' | 'no-content';

/** The requests one session pauses. */
export interface PausedRequests {
  /**
   * Resolves once every request but a document the browser had paused when this was called (and
   * any paused while they were decided) has been answered. A document's navigation ends with its
   * page, and one held for its crawl-delay would hold the caller as long.
   */
  settled(): Promise<void>;
  /** Fails every such request still paused, undecided: nothing left paused can be let go as it was made. */
  refuseOpen(): Promise<void>;
}

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
  workerScripts?: WorkerScripts,
): Promise<PausedRequests> {
  const open = new OpenRequests();
  session.on('Fetch.requestPaused', (paused) => {
    const { requestId } = paused;
    if (paused.responseStatusCode !== undefined || paused.responseErrorReason !== undefined) {
      open.track(
        requestId,
        answerResponse(session, paused, workerScripts).catch(() => {}),
      );
      return;
    }
    const answered = decide(paused)
      .catch((): PausedRequestAction => 'block')
      .then(async (decision) => {
        if (decision === 'continue') {
          const headers = headersOf?.(paused);
          // A worker's script: its response is taken, to be rewritten.
          const intercept = workerScripts !== undefined && mayBeWorkerScript(paused) ? { interceptResponse: true } : {};
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
    if (paused.resourceType !== 'Document') open.track(requestId, answered);
  });
  await session.send('Fetch.enable', { patterns: [documentsOnly ? { urlPattern: '*', resourceType: 'Document' } : { urlPattern: '*' }] });
  return {
    settled: async () => {
      // A round trip first: the browser sends the session's events in order, so every request it
      // paused before answering this has been seen here by then.
      await session.send('Target.getTargetInfo').catch(() => {});
      await open.drained();
    },
    // The decision that comes later finds its request gone, and its answer fails quietly.
    refuseOpen: async () => {
      await Promise.all(
        open.ids().map((requestId) => session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => {})),
      );
    },
  };
}

/** The paused requests whose answers are not yet sent. */
class OpenRequests {
  private readonly open = new Set<string>();
  private waiting: (() => void)[] = [];

  track(requestId: string, answer: Promise<unknown>): void {
    this.open.add(requestId);
    void answer.finally(() => {
      this.open.delete(requestId);
      if (this.open.size > 0) return;
      const waiting = this.waiting;
      this.waiting = [];
      for (const resolve of waiting) resolve();
    });
  }

  ids(): string[] {
    return [...this.open];
  }

  drained(): Promise<void> {
    return this.open.size === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}

/**
 * Whether a paused request may be a worker's script, whose response is to be taken (a round trip
 * more). Chromium fetches one as `Other`, with the Fetch standard's `Accept: *\/*` (a page cannot
 * set a worker script's headers); a favicon, the `Other` request of every page load, asks for
 * images, and goes on untaken.
 */
function mayBeWorkerScript(paused: PausedRequest): boolean {
  if (paused.resourceType !== 'Other') return false;
  const accept = Object.entries(paused.request.headers).find(([name]) => name.toLowerCase() === 'accept')?.[1];
  return accept === undefined || accept.trim() === '*/*';
}

/** JavaScript, as a response's `Content-Type` names it. */
const JAVASCRIPT = /\b(?:java|ecma)script\b/i;

/** A response header by its lower-case name. */
type HeaderOf = (name: string) => string | undefined;

/** Whether a response is a script a worker could run: a 2xx of a JavaScript type. */
export function isScriptResponse(status: number | undefined, header: HeaderOf): boolean {
  return status !== undefined && status >= 200 && status <= 299 && JAVASCRIPT.test(header('content-type') ?? '');
}

/** A length the body cannot exceed once decoded (no content coding to expand it); `NaN` when none is declared. */
export function declaredBytes(header: HeaderOf): number {
  return /^(?:identity)?$/i.test(header('content-encoding')?.trim() ?? '') ? Number(header('content-length') ?? NaN) : NaN;
}

/** The headers that frame a body as it came (length, coding): dropped when a decoded, rewritten body replaces it. */
export const BODY_FRAMING = /^content-(?:length|encoding)$/i;

/**
 * A taken response: a script of the resource type a worker's scripts come as (`Other`) is
 * rewritten (a prefetched script that is not a worker's is too, where the rewrite is to do nothing
 * outside a worker); anything else goes on as it came.
 */
async function answerResponse(session: CdpSession, paused: PausedRequest, scripts: WorkerScripts | undefined): Promise<void> {
  const { requestId, responseStatusCode: status, responseHeaders: headers = [] } = paused;
  const header = (name: string) => headers.find((entry) => entry.name.toLowerCase() === name)?.value;
  if (scripts === undefined || status === undefined || !isScriptResponse(status, header)) {
    await session.send('Fetch.continueRequest', { requestId });
    return;
  }
  // A length the body cannot exceed (no content coding to expand it) refuses a long script unread.
  const declared = declaredBytes(header);
  const bytes = declared > scripts.maxBytes ? declared : await readBody(session, requestId, scripts.maxBytes);
  if (typeof bytes === 'number') {
    scripts.refused(paused.request.url, bytes);
    await session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' });
    return;
  }
  await session.send('Fetch.fulfillRequest', {
    requestId,
    responseCode: status,
    // The body given is the decoded one, of a new length.
    responseHeaders: headers.filter((entry) => !BODY_FRAMING.test(entry.name)),
    body: scripts.rewrite(bytes).toString('base64'),
  });
}

/** How much of a taken body one `IO.read` asks for. */
const READ_BYTES = 1 << 20;

/**
 * The decoded body of a taken response, read as a stream: the whole of it, or, once it passes
 * `maxBytes`, the count read so far (the rest is never read). The request must then be fulfilled
 * or failed: its body has been taken.
 */
async function readBody(session: CdpSession, requestId: string, maxBytes: number): Promise<Buffer | number> {
  const { stream } = (await session.send('Fetch.takeResponseBodyAsStream', { requestId })) as { stream: string };
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const read = (await session.send('IO.read', { handle: stream, size: READ_BYTES })) as {
        data: string;
        base64Encoded?: boolean;
        eof: boolean;
      };
      const chunk = Buffer.from(read.data, read.base64Encoded === true ? 'base64' : 'utf8');
      total += chunk.length;
      if (total > maxBytes) return total;
      chunks.push(chunk);
      if (read.eof) return Buffer.concat(chunks, total);
    }
  } finally {
    void session.send('IO.close', { handle: stream }).catch(() => {});
  }
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
