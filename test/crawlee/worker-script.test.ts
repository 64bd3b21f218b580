/**
 * A Playwright worker's script as Heed hands it to the browser: begun with the socket script, the
 * worker's own bytes kept as they were, a leading `'use strict'` (and byte-order mark) still first,
 * so the worker runs in the mode its author chose. The contract suite's worker-websocket door
 * proves the socket script works in a real worker; this proves what the rewrite keeps.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { prefixWorkerScript } from '../../packages/crawlee/src/taps/browser/session-websockets.js';

const rewritten = (source: string | Buffer) => prefixWorkerScript(Buffer.isBuffer(source) ? source : Buffer.from(source, 'utf8'));

describe("a worker's script, begun with the socket script", () => {
  it('keeps the script whole after the socket script', () => {
    const out = rewritten('self.onmessage = () => {};\n// é\n').toString('utf8');
    expect(out.endsWith('self.onmessage = () => {};\n// é\n')).toBe(true);
    expect(out.indexOf('WorkerGlobalScope')).toBeLessThan(out.indexOf('self.onmessage'));
  });

  it.each([
    ["'use strict'; x = 1;", "'use strict';"],
    ['"use strict"\nx = 1;', '"use strict"'],
    ["\uFEFF'use strict';x = 1;", "\uFEFF'use strict';"],
  ])('keeps %j in strict mode: its directive stays first', (source, prologue) => {
    const out = rewritten(source).toString('utf8');
    expect(out.startsWith(prologue)).toBe(true);
    // Still strict: the assignment to an undeclared name throws.
    expect(() => runInNewContext(out.replace(/^\uFEFF/, ''), {})).toThrow(/x is not defined/);
  });

  it("keeps bytes of any charset as they were (a Latin-1 script's é)", () => {
    const latin1 = Buffer.from([0x76, 0x61, 0x72, 0x20, 0x73, 0x20, 0x3d, 0x20, 0x27, 0xe9, 0x27, 0x3b]);
    const out = rewritten(latin1);
    expect(out.subarray(out.length - latin1.length).equals(latin1)).toBe(true);
  });

  it('does nothing where it runs outside a worker', () => {
    const out = rewritten('globalThis.ran = true;').toString('utf8');
    const context: Record<string, unknown> = { WebSocket: function NativeWebSocket() {}, EventTarget };
    runInNewContext(out, context);
    expect(context['ran']).toBe(true);
    expect((context['WebSocket'] as { name: string }).name).toBe('NativeWebSocket');
  });
});
