/**
 * An inverted index of a text's tokens by the match keys they offer (term-match.ts), so finding
 * where a requirement's words were said costs a few look-ups per word of the requirement rather
 * than a comparison with every word of the conversation.
 */
import type { Token } from './text-analysis.js';
import { tokenKeys, type Term } from './term-match.js';

interface Hit<Place> {
  readonly place: Place;
  readonly token: Token;
  readonly strength: number;
}

export class MatchIndex<Place> {
  private readonly entries: Array<{ place: Place; token: Token }> = [];
  private readonly byKey = new Map<string, number[]>();

  add(token: Token, place: Place): void {
    if (!token.content) return;
    const entry = this.entries.length;
    this.entries.push({ place, token });
    for (const key of tokenKeys(token)) {
      const list = this.byKey.get(key);
      if (list) list.push(entry);
      else this.byKey.set(key, [entry]);
    }
  }

  /** Every token that meets the term, once each, at its strongest match. */
  find(term: Term): Array<Hit<Place>> {
    const strongest = new Map<number, number>();
    const take = (list: readonly number[], strength: number) => {
      for (const entry of list) if ((strongest.get(entry) ?? 0) < strength) strongest.set(entry, strength);
    };
    // Whichever side has fewer keys is walked: a general word accepts thousands of words, a
    // conversation says a few hundred.
    if (term.keys.size <= this.byKey.size) {
      for (const [key, strength] of term.keys) {
        const list = this.byKey.get(key);
        if (list) take(list, strength);
      }
    } else {
      for (const [key, list] of this.byKey) {
        const strength = term.keys.get(key);
        if (strength !== undefined) take(list, strength);
      }
    }
    const hits: Array<Hit<Place>> = [];
    for (const [entry, strength] of strongest) {
      const { place, token } = this.entries[entry]!;
      hits.push({ place, token, strength });
    }
    return hits;
  }
}
