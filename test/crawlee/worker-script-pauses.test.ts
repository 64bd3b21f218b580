/**
 * Which paused requests have their responses taken too (a round trip more each): only those that
 * may be a worker's script, which Chromium sends as `Other` asking for any type. Driven through a
 * DevTools session that records what it is sent, with the pauses Chromium gives for a page's
 * requests (their resource types and `Accept` headers as Chromium writes them).
 */
import { describe, expect, it } from 'vitest';
import { pauseRequests, type CdpSession, type PausedRequest } from '../../packages/crawlee/src/taps/browser/cdp-fetch.js';

/** A session that records the commands it is sent and lets the test pause requests. */
function recordingSession() {
  const sent: { method: string; params: Record<string, unknown> | undefined }[] = [];
  let listener: ((event: PausedRequest) => void) | undefined;
  const session: CdpSession = {
    send(method, params) {
      sent.push({ method, params });
      return Promise.resolve({});
    },
    on(_event, handler) {
      listener = handler;
    },
  };
  const pause = (event: PausedRequest) => listener?.(event);
  return { session, sent, pause };
}

const ANY = '*/*';
const IMAGES = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const scripts = { rewrite: (body: Buffer) => body, maxBytes: 1024, refused: () => {} };

/** A request of `resourceType` asking for `accept` (no `Accept` header when undefined). */
const request = (id: string, resourceType: string, accept: string | undefined, acceptName = 'Accept'): PausedRequest => ({
  requestId: id,
  resourceType,
  request: { url: `https://a.example/${id}`, headers: accept === undefined ? {} : { [acceptName]: accept } },
});

async function continued(requests: PausedRequest[], workerScripts: typeof scripts | undefined) {
  const { session, sent, pause } = recordingSession();
  await pauseRequests(session, false, () => Promise.resolve('continue'), undefined, undefined, workerScripts);
  for (const paused of requests) pause(paused);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return new Map(
    sent
      .filter((command) => command.method === 'Fetch.continueRequest')
      .map((command) => [command.params?.requestId, command.params?.interceptResponse === true]),
  );
}

describe("pauseRequests: a worker's script has its response taken, nothing else does", () => {
  it("takes the response of an `Other` request for any type (a worker's script), and of one with no Accept", async () => {
    const taken = await continued(
      [request('worker.js', 'Other', ANY), request('shared.js', 'Other', ' */* ', 'accept'), request('bare', 'Other', undefined)],
      scripts,
    );
    expect(Object.fromEntries(taken)).toEqual({ 'worker.js': true, 'shared.js': true, bare: true });
  });

  it('sends on a favicon (`Other`, asking for images) and the other resource types without taking their responses', async () => {
    const taken = await continued(
      [
        request('favicon.ico', 'Other', IMAGES),
        request('page', 'Document', 'text/html,application/xhtml+xml,*/*;q=0.8'),
        request('app.js', 'Script', ANY),
        request('api', 'XHR', ANY),
        request('beacon', 'Ping', ANY),
      ],
      scripts,
    );
    expect(Object.fromEntries(taken)).toEqual({ 'favicon.ico': false, page: false, 'app.js': false, api: false, beacon: false });
  });

  it('takes no response when no worker script is to be rewritten', async () => {
    const taken = await continued([request('worker.js', 'Other', ANY)], undefined);
    expect(taken.get('worker.js')).toBe(false);
  });
});
