// A seeded shuffle for tests that replay events out of order, so a failure can be replayed.

/** A pseudo-random sequence in [0, 1) from `seed` (a linear congruential generator). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** A copy of `items` in the order `rand` gives (Fisher-Yates). */
export function shuffle<T>(items: T[], rand: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
