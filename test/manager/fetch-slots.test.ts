/**
 * The manager's fetch slots: `maxConcurrency` fetches at most at once, the rest in the order they
 * came; a waiting fetch the manager's close aborts leaves the line without taking a slot; a slot is
 * freed however its fetch ends. (The manager tests show them through `stats()` and `close()`.)
 */
import { describe, expect, it } from 'vitest';
import { FetchSlots } from '../../packages/manager/src/loader/fetch-slots.js';

/** A task that runs until `finish()`, noting when it started. */
function gate(started: number[], id: number) {
  let finish!: (fail?: boolean) => void;
  const task = () =>
    new Promise<number>((resolve, reject) => {
      started.push(id);
      finish = (fail) => (fail ? reject(new Error(`task ${id} failed`)) : resolve(id));
    });
  return { task, finish: (fail?: boolean) => finish(fail) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('FetchSlots', () => {
  it('runs at most `concurrency` tasks at once, the others in the order they came', async () => {
    const slots = new FetchSlots(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map((id) => gate(started, id));
    const results = gates.map((g) => slots.add(g.task));
    const failed = results[0]!.catch((error: unknown) => error);
    await turn();
    expect(started).toEqual([0, 1]);
    expect([slots.pending, slots.size]).toEqual([2, 3]);
    gates[1]!.finish();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.finish(true);
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates.slice(2)) {
      g.finish();
      await turn();
    }
    expect(await failed).toMatchObject({ message: 'task 0 failed' });
    expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3, 4]);
    expect([slots.pending, slots.size]).toEqual([0, 0]);
  });

  it('an aborted wait rejects with the reason and never runs; its turn passes to the next', async () => {
    const slots = new FetchSlots(1);
    const started: number[] = [];
    const [first, second, third] = [0, 1, 2].map((id) => gate(started, id));
    const controller = new AbortController();
    void slots.add(first!.task);
    const aborted = slots.add(second!.task, { signal: controller.signal });
    const last = slots.add(third!.task);
    await turn();
    controller.abort(new Error('closed'));
    await expect(aborted).rejects.toThrow('closed');
    expect(slots.size).toBe(1);
    first!.finish();
    await turn();
    expect(started).toEqual([0, 2]);
    third!.finish();
    expect(await last).toBe(2);
    expect([slots.pending, slots.size]).toEqual([0, 0]);
  });

  it('an already aborted signal rejects at once', async () => {
    const slots = new FetchSlots(1);
    await expect(slots.add(async () => 1, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(await slots.add(async () => 2)).toBe(2);
  });

  it('a long line with waits aborted throughout: every other task runs once, in order, never over the bound', async () => {
    const slots = new FetchSlots(3);
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    const controllers: AbortController[] = [];
    const results: Promise<unknown>[] = [];
    for (let i = 0; i < 5000; i++) {
      const controller = new AbortController();
      controllers.push(controller);
      results.push(
        slots
          .add(
            async () => {
              running++;
              most = Math.max(most, running);
              ran.push(i);
              await turn();
              running--;
            },
            { signal: controller.signal },
          )
          .catch(() => 'aborted'),
      );
    }
    for (let i = 3; i < 5000; i += 2) controllers[i]!.abort();
    await Promise.all(results);
    const expected = Array.from({ length: 5000 }, (_, i) => i).filter((i) => i < 3 || i % 2 === 0);
    expect(ran).toEqual(expected);
    expect(most).toBe(3);
    expect([slots.pending, slots.size]).toEqual([0, 0]);
  });
});
