/**
 * The words the keyword-overlap baselines look for, pure. A token is a run of [a-z0-9] in the
 * lower-cased text (the ROUGE tokeniser); a content word is a distinct token that is not in
 * STOP_WORDS. The list is NLTK's English stop words (179 words) reduced to what this tokeniser can
 * produce: the forms with an apostrophe ("don't") are left out, since they arrive split ("don", "t")
 * and both halves are already listed.
 */
import { rougeTokens } from './rouge.js';

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven ' +
    'isn ma mightn mustn needn shan shouldn wasn weren won wouldn'
  ).split(' '),
);

/** The distinct content words of a text, in order of first appearance. */
export function contentWords(text: string): string[] {
  return [...new Set(rougeTokens(text).filter((token) => !STOP_WORDS.has(token)))];
}

/** Every distinct token of the texts, stop words included (what a content word is looked up in). */
export function tokenSet(texts: Iterable<string>): Set<string> {
  const tokens = new Set<string>();
  for (const text of texts) for (const token of rougeTokens(text)) tokens.add(token);
  return tokens;
}

/**
 * The keyword-overlap rule of every baseline here: true when at least half of the distinct content
 * words of `text` appear among `present`. A text without content words asks for nothing: true.
 */
export function atLeastHalfPresent(text: string, present: ReadonlySet<string>): boolean {
  const words = contentWords(text);
  const found = words.filter((word) => present.has(word)).length;
  return found * 2 >= words.length;
}
