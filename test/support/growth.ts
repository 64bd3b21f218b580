/**
 * How a step's time grows with its input, read so that a slow spell of a shared machine cannot fake
 * a blow-up: the two sizes run alternately, each round's ratio is taken within the round, and the
 * median of the rounds is returned. A single timing of each size can land one in a slow second.
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
