/**
 * Word error rate, the usual measure of a speech recogniser: the fewest word substitutions,
 * deletions and insertions that turn the reference (what was said) into the hypothesis (what was
 * recognised), divided by the number of reference words.
 *
 * Both texts are compared as lower-case words: punctuation is ignored, except an apostrophe inside
 * a word ("don't"), and a hyphen separates words ("cold-hearted" is "cold hearted"). Nothing else
 * is normalised (no spelling out of numbers or abbreviations), so "mr" against "mister" counts as
 * a substitution.
 */

export interface WordErrors {
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
}

export interface WordErrorRate extends WordErrors {
  /** (substitutions + deletions + insertions) / referenceWords; 0 for two empty texts, 1 when only the reference is empty. */
  wer: number;
}

export function wordErrorRate(reference: string, hypothesis: string): WordErrorRate {
  return withRate(countWordErrors(comparableWords(reference), comparableWords(hypothesis)));
}

/** The rate over several utterances together: all their edits over all their reference words. */
export function overallWordErrorRate(results: readonly WordErrors[]): WordErrorRate {
  const total: WordErrors = { substitutions: 0, deletions: 0, insertions: 0, referenceWords: 0 };
  for (const result of results) {
    total.substitutions += result.substitutions;
    total.deletions += result.deletions;
    total.insertions += result.insertions;
    total.referenceWords += result.referenceWords;
  }
  return withRate(total);
}

/** The words as they are compared. */
export function comparableWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .split(' ')
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word !== '');
}

function withRate(errors: WordErrors): WordErrorRate {
  const edits = errors.substitutions + errors.deletions + errors.insertions;
  const wer = errors.referenceWords > 0 ? edits / errors.referenceWords : edits > 0 ? 1 : 0;
  return { wer, ...errors };
}

/**
 * Levenshtein distance over words, keeping for each cell the split of its edits into kinds; among
 * alignments with the fewest edits it prefers substitutions, then deletions, then insertions.
 */
function countWordErrors(reference: readonly string[], hypothesis: readonly string[]): WordErrors {
  type Cell = { edits: number; substitutions: number; deletions: number; insertions: number };
  let previous: Cell[] = hypothesis.map((_, index) => ({ edits: index, substitutions: 0, deletions: 0, insertions: index }));
  previous.push({ edits: hypothesis.length, substitutions: 0, deletions: 0, insertions: hypothesis.length });

  for (let row = 1; row <= reference.length; row += 1) {
    const current: Cell[] = [{ edits: row, substitutions: 0, deletions: row, insertions: 0 }];
    for (let column = 1; column <= hypothesis.length; column += 1) {
      const diagonal = previous[column - 1]!;
      const same = reference[row - 1] === hypothesis[column - 1];
      const candidates: Cell[] = [
        same ? { ...diagonal } : { ...diagonal, edits: diagonal.edits + 1, substitutions: diagonal.substitutions + 1 },
        { ...previous[column]!, edits: previous[column]!.edits + 1, deletions: previous[column]!.deletions + 1 },
        { ...current[column - 1]!, edits: current[column - 1]!.edits + 1, insertions: current[column - 1]!.insertions + 1 },
      ];
      current.push(candidates.reduce((best, candidate) => (candidate.edits < best.edits ? candidate : best)));
    }
    previous = current;
  }
  const { substitutions, deletions, insertions } = previous[hypothesis.length]!;
  return { substitutions, deletions, insertions, referenceWords: reference.length };
}
