/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F1, pure. Tokens are the runs of [a-z0-9] in the lower-cased
 * text (no stemming, no stop-word removal), as Google's `rouge-score` tokenises without its
 * stemmer. ROUGE-N counts clipped n-gram overlap; ROUGE-L uses the longest common subsequence of
 * the whole token sequences (not the summary-level union LCS over sentences).
 */

export interface PrecisionRecallF1 {
  precision: number;
  recall: number;
  f1: number;
}

export interface RougeScores {
  /** F1 × 100. */
  rouge1: number;
  rouge2: number;
  rougeL: number;
}

export function rougeTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

export function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + n <= tokens.length; start += 1) {
    const gram = tokens.slice(start, start + n).join(' ');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** ROUGE-N of a candidate against one reference: each n-gram counts at most as often as the reference has it. */
export function rougeN(candidate: readonly string[], reference: readonly string[], n: number): PrecisionRecallF1 {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ROUGE-N needs n ≥ 1, got ${n}`);
  const candidateGrams = ngramCounts(candidate, n);
  const referenceGrams = ngramCounts(reference, n);
  let overlap = 0;
  for (const [gram, count] of candidateGrams) overlap += Math.min(count, referenceGrams.get(gram) ?? 0);
  return prf(overlap, Math.max(candidate.length - n + 1, 0), Math.max(reference.length - n + 1, 0));
}

/** Length of the longest common subsequence, in O(|a|·|b|) time and O(|b|) memory. */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i += 1) {
    const token = a[i - 1];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = token === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

export function rougeL(candidate: readonly string[], reference: readonly string[]): PrecisionRecallF1 {
  return prf(lcsLength(candidate, reference), candidate.length, reference.length);
}

/** ROUGE-1/2/L F1 × 100 of a summary against a reference text. */
export function rougeScores(candidateText: string, referenceText: string): RougeScores {
  const candidate = rougeTokens(candidateText);
  const reference = rougeTokens(referenceText);
  return {
    rouge1: rougeN(candidate, reference, 1).f1 * 100,
    rouge2: rougeN(candidate, reference, 2).f1 * 100,
    rougeL: rougeL(candidate, reference).f1 * 100,
  };
}

/** Precision, recall and F1 from an overlap; all 0 when either side is empty or nothing overlaps. */
function prf(overlap: number, candidateTotal: number, referenceTotal: number): PrecisionRecallF1 {
  const precision = candidateTotal === 0 ? 0 : overlap / candidateTotal;
  const recall = referenceTotal === 0 ? 0 : overlap / referenceTotal;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
