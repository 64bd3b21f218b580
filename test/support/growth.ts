/**
 * How a step's cost shows: in turns of the event loop, counted (`vitest run`), or in a growth ratio
 * of times (`pnpm test:stress`).
 */

/**
 * Counts the turns of the event loop (one `setImmediate` probe a turn) until `stop()`. A step that
 * hands the loop back after every slice of its work shows a turn a slice; one that holds the loop
 * shows one or two. A count: a machine busy with other work does not change it.
 */
export function countTurns(): { readonly turns: number; stop(): number } {
  let turns = 0;
  let running = true;
  const probe = () => {
    turns++;
    if (running) setImmediate(probe);
  };
  setImmediate(probe);
  return {
    get turns() {
      return turns;
    },
    stop: () => {
      running = false;
      return turns;
    },
  };
}

/** The turns of the event loop while `work` runs (see {@link countTurns}). */
export async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  const counter = countTurns();
  try {
    await work();
  } finally {
    counter.stop();
  }
  return counter.turns;
}

/**
 * How a step's time grows with its input, read so that a slow spell of a shared machine cannot fake
 * a blow-up: the two sizes run alternately, each round's ratio is taken within the round, and the
 * median of the rounds is returned. A single timing of each size can land one in a slow second.
 *
 * For `pnpm test:stress` (test/stress/), run one file at a time: a ratio of times is still a speed,
 * and a machine whose cores are busy with other work can stretch one size's rounds more than the
 * other's. `vitest run` bounds the same steps by counting what they do.
 */
export function medianGrowth(small: () => void, large: () => void, rounds = 5): number {
  // JIT warm-up, so the first round does not time the compiler.
  small();
  large();
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // At least 1 ms below: a clock's resolution must not turn a fast small run into a huge ratio.
    const smallMs = Math.max(timed(small), 1);
    ratios.push(timed(large) / smallMs);
  }
  ratios.sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}
