import { describe, expect, it } from 'vitest';
import { lcsLength, ngramCounts, rougeL, rougeN, rougeScores, rougeTokens } from './rouge.js';

describe('rougeTokens', () => {
  it('keeps lower-cased runs of [a-z0-9] only: no stemming, no stop-word removal', () => {
    expect(rougeTokens("Don't STOP—2 times, the cats!")).toEqual(['don', 't', 'stop', '2', 'times', 'the', 'cats']);
    expect(rougeTokens('Siân {vocalsound} .')).toEqual(['si', 'n', 'vocalsound']);
    expect(rougeTokens('  ')).toEqual([]);
  });
});

describe('ngramCounts', () => {
  it('counts every n-gram, overlapping', () => {
    expect([...ngramCounts(['a', 'a', 'a'], 2)]).toEqual([['a a', 2]]);
    expect(ngramCounts(['a'], 2).size).toBe(0);
  });
});

describe('ROUGE, hand-computed', () => {
  // candidate: the cat sat on the mat (6 tokens) · reference: the cat is on the mat (6 tokens)
  const candidate = 'The cat sat on the mat.';
  const reference = 'The cat is on the mat.';

  it('ROUGE-1: 5 of 6 unigrams overlap (the ×2, cat, on, mat) → P = R = F = 5/6', () => {
    const r = rougeN(rougeTokens(candidate), rougeTokens(reference), 1);
    expect(r.precision).toBeCloseTo(5 / 6, 12);
    expect(r.recall).toBeCloseTo(5 / 6, 12);
    expect(r.f1).toBeCloseTo(5 / 6, 12);
  });

  it('ROUGE-2: 3 of 5 bigrams overlap (the cat, on the, the mat) → F = 3/5', () => {
    expect(rougeN(rougeTokens(candidate), rougeTokens(reference), 2).f1).toBeCloseTo(3 / 5, 12);
  });

  it('ROUGE-L: the LCS is "the cat on the mat" (5) → F = 5/6', () => {
    expect(lcsLength(rougeTokens(candidate), rougeTokens(reference))).toBe(5);
    expect(rougeL(rougeTokens(candidate), rougeTokens(reference)).f1).toBeCloseTo(5 / 6, 12);
  });

  it('reports F1 × 100', () => {
    const scores = rougeScores(candidate, reference);
    expect(scores.rouge1).toBeCloseTo(83.3333, 3);
    expect(scores.rouge2).toBeCloseTo(60, 9);
    expect(scores.rougeL).toBeCloseTo(83.3333, 3);
  });

  it('clips a repeated n-gram to its count in the reference: "the the the the" vs "the cat" → P 1/4, R 1/2, F 1/3', () => {
    const r = rougeN(['the', 'the', 'the', 'the'], ['the', 'cat'], 1);
    expect(r.precision).toBe(0.25);
    expect(r.recall).toBe(0.5);
    expect(r.f1).toBeCloseTo(1 / 3, 12);
    expect(rougeN(['the', 'the', 'the', 'the'], ['the', 'cat'], 2).f1).toBe(0);
  });

  it('ROUGE-L follows order where ROUGE-1 does not: "a b c d" vs "d c b a" → R-1 100, R-L 25', () => {
    const scores = rougeScores('a b c d', 'd c b a');
    expect(scores.rouge1).toBe(100);
    expect(scores.rouge2).toBe(0);
    expect(scores.rougeL).toBe(25);
  });

  it('uses precision and recall of different lengths: candidate "police killed the gunman" vs reference "the gunman was killed by police"', () => {
    // Unigrams: police, killed, the, gunman all in the reference → P 4/4, R 4/6, F = 2·1·(2/3)/(1 + 2/3) = 0.8.
    // Bigrams: only "the gunman" of 3 and 5 → P 1/3, R 1/5, F 0.25. LCS: "the gunman" (2) → P 2/4, R 2/6, F 0.4.
    const scores = rougeScores('police killed the gunman', 'the gunman was killed by police');
    expect(scores.rouge1).toBeCloseTo(80, 9);
    expect(scores.rouge2).toBeCloseTo(25, 9);
    expect(scores.rougeL).toBeCloseTo(40, 9);
  });

  it('is 0 for an empty summary or an empty reference, and for no overlap', () => {
    expect(rougeScores('', 'the cat')).toEqual({ rouge1: 0, rouge2: 0, rougeL: 0 });
    expect(rougeScores('the cat', '')).toEqual({ rouge1: 0, rouge2: 0, rougeL: 0 });
    expect(rougeScores('dog', 'cat')).toEqual({ rouge1: 0, rouge2: 0, rougeL: 0 });
  });

  it('scores a summary identical to its reference 100', () => {
    expect(rougeScores('Yellow remote, agreed.', 'yellow REMOTE agreed')).toEqual({ rouge1: 100, rouge2: 100, rougeL: 100 });
  });
});

describe('lcsLength', () => {
  it('finds the longest common subsequence, not substring', () => {
    expect(lcsLength(['a', 'b', 'c', 'b', 'd', 'a', 'b'], ['b', 'd', 'c', 'a', 'b', 'a'])).toBe(4); // e.g. b c b a (CLRS's example)
    expect(lcsLength([], ['a'])).toBe(0);
    expect(lcsLength(['x'], ['x'])).toBe(1);
  });

  it('handles long sequences quickly (meeting-sized)', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `w${i % 97}`);
    const b = Array.from({ length: 300 }, (_, i) => `w${(i * 7) % 97}`);
    const started = performance.now();
    const length = lcsLength(a, b);
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThanOrEqual(300);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
