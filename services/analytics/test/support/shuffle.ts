/** Delivery orders for convergence tests, drawn from a seeded generator so a failure can be replayed. */

/** Every item at least once, some up to three times, in a random order. */
export function shuffledWithRepeats<T>(items: readonly T[], random: () => number): T[] {
  const deliveries = items.flatMap((item) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => item));
  for (let i = deliveries.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  return deliveries;
}

/** mulberry32: small, fast and good enough to shuffle. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
