/**
 * The language rules behind the conversation statistics: what a word is, which sentences are
 * questions and which words are fillers. Pure, English-centred, and deliberately simple enough to
 * explain to the person reading the numbers.
 *
 * Words. A word is a run of letters, digits and marks, with inner apostrophes and hyphens
 * ("don't", "follow-up") and inner decimal or thousands marks between digits ("3.5", "1,000",
 * "10:30"). A Chinese or Japanese character is a word on its own, as those scripts have no spaces.
 *
 * Breaks. What separates two words is a sentence end when it holds . ! ? (or 。！？), a clause
 * break when it holds , ; : … - – — ( ) (or ，；：、), and nothing otherwise. The start and the end
 * of a text are sentence ends.
 *
 * Questions (`countQuestions`).
 * - Punctuated text: every sentence ending with a question mark ("Really?!" is one).
 * - Text without punctuation (speech recognition): the text is one sentence, and it is a question
 *   when it opens like one, after any lead-in words (so, and, but, okay, well, yeah, um, …):
 *   - "what", "which", "who", "whom", "whose", "why" or "how", unless the next word is a subject
 *     pronoun or "a"/"an" ("what we need is", "how it works", "what a day" are statements);
 *   - "when" or "where" followed by an auxiliary verb ("when is", "where do"), or alone;
 *   - a contraction of those words ("what's", "how's", "where'd");
 *   - an auxiliary verb followed by its subject: "could you", "can we", "would you", "are you",
 *     "is there", "is the", "did anyone", "don't you"… — "do" and "have" only before a person
 *     ("do you", "have we"), as "do it" and "have the" start orders, not questions.
 *
 * Fillers (`countFillers`), case-insensitive and whole words; a multi-word filler counts once.
 * - Always: um, uh, er, erm, ah, hmm, and their drawn-out spellings (umm, uhh, uhm, hmmm…).
 * - "like", "you know" and "I mean" only when set off on both sides by a break ("it was, like,
 *   huge", "I mean, sure", "It is hard, you know."): "I like it", "do you know" and "I mean it"
 *   are not fillers. Text without punctuation has no breaks inside, so there they count only as a
 *   segment of their own.
 * - "kind of" and "sort of" unless they follow a determiner or describing word ("what kind of
 *   plan", "a different sort of deal"): "it is kind of expensive" counts.
 */

type Break = 'none' | 'clause' | 'sentence';

export interface TokenizedText {
  /** Lowercased, with ’ written as '. */
  words: string[];
  /** `breaks[i]` is what comes before word i; `breaks[words.length]` what ends the text. */
  breaks: Break[];
  /** `questionMarks[i]`: the break before word i (or the end) holds a question mark. */
  questionMarks: boolean[];
  /** A sentence end mark (. ! ? 。！？) separates words somewhere: "3.5" alone does not count. */
  punctuated: boolean;
}

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORD_CHAR = `(?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])`;
const WORD = new RegExp(`[${CJK}]|${WORD_CHAR}+(?:['’\\-]${WORD_CHAR}+|(?<=\\p{N})[.,:]\\p{N}+)*`, 'gu');
const SENTENCE_END = /[.!?。！？]/;
const QUESTION_MARK = /[?？]/;
const CLAUSE_BREAK = /[,;:…\-–—()，；：、]/;

// Most transcripts are plain ASCII, which a pattern without Unicode classes reads several times faster.
const ASCII_TEXT = /^\p{ASCII}*$/u;
const ASCII_WORD = /[A-Za-z0-9]+(?:['-][A-Za-z0-9]+|(?<=[0-9])[.,:][0-9]+)*/g;

// Not language/tokenize.ts, the offline evaluator's: that one splits "didn't" into "did" "not" and
// tells numbers, times and dates for lemmas and matching; statistics count words as people do.
export function tokenize(text: string): TokenizedText {
  const tokenized: TokenizedText = { words: [], breaks: [], questionMarks: [], punctuated: false };
  let last = 0;
  const pattern = ASCII_TEXT.test(text) ? ASCII_WORD : WORD;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    addBreak(tokenized, text.slice(last, match.index), tokenized.words.length === 0);
    const word = match[0].toLowerCase();
    tokenized.words.push(word.includes('’') ? word.replaceAll('’', "'") : word);
    last = match.index + match[0].length;
  }
  addBreak(tokenized, text.slice(last), true);
  return tokenized;
}

function addBreak(tokenized: TokenizedText, separator: string, edge: boolean): void {
  // Most words are parted by one blank: nothing to look for.
  if (separator === ' ' && !edge) {
    tokenized.breaks.push('none');
    tokenized.questionMarks.push(false);
    return;
  }
  const marked = SENTENCE_END.test(separator);
  tokenized.punctuated ||= marked;
  tokenized.breaks.push(edge || marked ? 'sentence' : CLAUSE_BREAK.test(separator) ? 'clause' : 'none');
  tokenized.questionMarks.push(QUESTION_MARK.test(separator));
}

// ---- Questions ----------------------------------------------------------------------------------

const LEAD_INS = new Set(['so', 'and', 'but', 'okay', 'ok', 'well', 'alright', 'right', 'now', 'oh', 'yeah', 'yes', 'also', 'then']);
const WH_UNLESS_STATEMENT = new Set(['what', 'which', 'who', 'whom', 'whose', 'why', 'how']);
const WH_BEFORE_AUXILIARY = new Set(['when', 'where']);
const STATEMENT_AFTER_WH = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'a', 'an']);
const AUXILIARIES = new Set([
  'am', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'should', 'shall', 'may', 'might', 'must', 'have', 'has',
  "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "can't", "couldn't", "wouldn't", "won't", "shouldn't", "haven't", "hasn't",
]);
const PERSON_ONLY_AUXILIARIES = new Set(['do', "don't", 'have', "haven't"]);
const PERSONS = new Set(['i', 'you', 'we', 'they', 'he', 'she', "y'all", 'anyone', 'anybody', 'someone', 'somebody', 'everyone', 'everybody']);
const OTHER_SUBJECTS = new Set(['it', 'there', 'that', 'this', 'these', 'those', 'the', 'your', 'our', 'my', 'his', 'her', 'their', 'any', 'anything', 'everything', 'something']);
const WH_CONTRACTION = /^(?:what|which|who|why|how|when|where)'(?:s|re|d|ll|ve)$/;

/**
 * The questions in a text: with `punctuated`, its sentences ending with a question mark; without,
 * 1 when the text (taken as one sentence) opens like a question, else 0.
 */
export function countQuestions({ words, questionMarks }: TokenizedText, punctuated: boolean): number {
  if (punctuated) return questionMarks.filter((isQuestion, index) => isQuestion && index > 0).length;
  return opensLikeQuestion(words) ? 1 : 0;
}

function opensLikeQuestion(words: readonly string[]): boolean {
  let start = 0;
  while (start < words.length && (LEAD_INS.has(words[start]!) || isFillerSound(words[start]!))) start += 1;
  const first = words[start];
  const next = words[start + 1];
  if (first === undefined) return false;
  if (WH_CONTRACTION.test(first)) return true;
  if (WH_UNLESS_STATEMENT.has(first)) return next === undefined || !STATEMENT_AFTER_WH.has(next.split("'")[0]!);
  if (WH_BEFORE_AUXILIARY.has(first)) return next === undefined || AUXILIARIES.has(next);
  if (AUXILIARIES.has(first) && next !== undefined) return PERSONS.has(next) || (!PERSON_ONLY_AUXILIARIES.has(first) && OTHER_SUBJECTS.has(next));
  return false;
}

// ---- Fillers ------------------------------------------------------------------------------------

const FILLER_SOUND = /^(?:u+m+|u+h+m*|e+r+m*|a+h+|h+m+)$/;
const SET_OFF_FILLERS = new Set(['like', 'you know', 'i mean']);
const HEDGES = new Set(['kind of', 'sort of']);
/** First words of the two-word fillers, so other words are not paired up. */
const PAIR_STARTS = new Set([...SET_OFF_FILLERS, ...HEDGES].filter((filler) => filler.includes(' ')).map((filler) => filler.split(' ')[0]!));
const QUALIFIERS = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'what', 'which', 'whatever', 'any', 'some', 'every', 'each', 'no', 'one', 'my', 'your', 'our',
  'their', 'his', 'her', 'its', 'same', 'other', 'another', 'different', 'certain', 'similar', 'particular', 'new', 'right', 'wrong', 'best', 'first', 'whole',
]);

function isFillerSound(word: string): boolean {
  return FILLER_SOUND.test(word);
}

/** The filler words in a text (see the rules above); "you know" is one filler. */
export function countFillers({ words, breaks }: TokenizedText): number {
  const setOffBefore = (index: number) => breaks[index] !== 'none';
  let fillers = 0;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const pair = PAIR_STARTS.has(word) && breaks[index + 1] === 'none' && index + 1 < words.length ? `${word} ${words[index + 1]}` : undefined;
    if (pair !== undefined && SET_OFF_FILLERS.has(pair) && setOffBefore(index) && setOffBefore(index + 2)) {
      fillers += 1;
      index += 1;
    } else if (pair !== undefined && HEDGES.has(pair) && (setOffBefore(index) || !QUALIFIERS.has(words[index - 1]!))) {
      fillers += 1;
      index += 1;
    } else if (isFillerSound(word) || (SET_OFF_FILLERS.has(word) && setOffBefore(index) && setOffBefore(index + 1))) {
      fillers += 1;
    }
  }
  return fillers;
}
