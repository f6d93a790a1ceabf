/**
 * What a sentence does, when its words alone do not say it: "This is Anna speaking" introduces,
 * "Good morning, thanks for calling" greets, "I understand how frustrating that is" empathises.
 * Criteria name these acts ("Greet the caller and introduce yourself", "Show empathy") with words
 * nobody says on a call, so a sentence doing the act offers a match key for it (term-match.ts),
 * met by the words that name the act.
 */
export type SpeechAct = 'greet' | 'introduce' | 'thank' | 'apologise' | 'empathise' | 'farewell' | 'recap' | 'record';

const PATTERNS: Record<SpeechAct, RegExp> = {
  greet: /\b(?:hello|hi|hey|good (?:morning|afternoon|evening|day)|welcome|thanks? (?:you )?for (?:calling|contacting|reaching out|joining|holding)|greetings)\b/i,
  introduce: /\b(?:this is [a-z]+|my name(?:'s| is)|i(?:'m| am) [a-z]+,? (?:from|with|at|your)|[a-z]+ (?:speaking|here) (?:from|with|at)|[a-z]+ speaking\b|you(?:'re| are) (?:speaking|talking) (?:to|with))/i,
  thank: /\b(?:thank(?:s| you)|appreciate|grateful)\b/i,
  apologise: /\b(?:sorry|apologi[sz]e|apologies|my apologies|regret)\b/i,
  empathise: /\b(?:i (?:completely |totally |fully )?understand|i can (?:imagine|see (?:why|how))|that must (?:be|have been)|i hear you|i know how|sorry to hear|frustrating|that sounds (?:hard|difficult|stressful|frustrating))\b/i,
  farewell: /\b(?:goodbye|good ?bye|bye|have a (?:great|good|nice|wonderful|lovely) (?:day|evening|night|weekend|one|afternoon)|take care|talk (?:to you )?soon)\b/i,
  recap: /\b(?:to (?:summari[sz]e|recap)|let me (?:recap|summari[sz]e|repeat that back)|just to confirm|in summary|so to confirm|to sum up)\b/i,
  record: /\b(?:(?:call|conversation) (?:is|may be|might be|will be) (?:being )?recorded|recorded for (?:quality|training))\b/i,
};

/** Words that name each act in a criterion, as WordNet lemmas. */
export const ACT_WORDS: Record<SpeechAct, readonly string[]> = {
  greet: ['greet', 'greeting', 'welcome', 'salute', 'salutation', 'hello'],
  introduce: ['introduce', 'introduction', 'identify', 'self-introduction'],
  thank: ['thank', 'thanks', 'gratitude', 'appreciation', 'appreciate'],
  apologise: ['apologize', 'apologise', 'apology'],
  empathise: ['empathize', 'empathise', 'empathy', 'empathetic', 'sympathize', 'sympathy', 'understanding', 'acknowledge'],
  farewell: ['farewell', 'goodbye', 'bye'],
  recap: ['recap', 'summarize', 'summarise', 'summary', 'paraphrase', 'restate'],
  record: ['record', 'recording', 'recorded'],
};

export function speechActsOf(sentence: string): SpeechAct[] {
  const acts: SpeechAct[] = [];
  for (const act of Object.keys(PATTERNS) as SpeechAct[]) if (PATTERNS[act].test(sentence)) acts.push(act);
  return acts;
}
