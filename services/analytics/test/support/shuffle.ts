/** Delivery orders for convergence tests, drawn from a seeded generator (platform/testing/seeded-random) so a failure can be replayed. */

/** Every item at least once, some up to three times, in a random order. */
export function shuffledWithRepeats<T>(items: readonly T[], random: () => number): T[] {
  const deliveries = items.flatMap((item) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => item));
  for (let i = deliveries.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
  }
  return deliveries;
}
