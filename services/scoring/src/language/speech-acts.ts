/**
 * What a sentence does, when its words alone do not say it: "This is Anna speaking" introduces,
 * "Good morning, thanks for calling" greets, "I understand how frustrating that is" empathises.
 * Criteria name these acts ("Greet the caller and introduce yourself", "Show empathy") with words
 * nobody says on a call, so a sentence doing the act offers a match key for it (term-match.ts),
 * met by the words that name the act.
 *
 * One act is not in the words of a sentence but in the conversation: a representative's sentence
 * that takes up what the other side said ("echo", found by offline/conversation.ts), which a
 * criterion names as "a need the caller stated" (offline/requirement-structure.ts).
 */
export type SpeechAct = 'greet' | 'introduce' | 'thank' | 'apologise' | 'empathise' | 'farewell' | 'recap' | 'record' | 'propose' | 'arrange' | 'askName' | 'verify' | 'instruct' | 'resolved' | 'echo';

const PATTERNS: Record<Exclude<SpeechAct, 'echo'>, RegExp> = {
  greet: /\b(?:hello|hi|hey|good (?:morning|afternoon|evening|day)|welcome|thanks? (?:you )?for (?:calling|contacting|reaching out|joining|holding)|greetings)\b/i,
  introduce: /\b(?:this is [a-z]+|my name(?:'s| is)|i(?:'m| am) [a-z]+,? (?:from|with|at|your)|[a-z]+ (?:speaking|here) (?:from|with|at)|[a-z]+ speaking\b|you(?:'re| are) (?:speaking|talking) (?:to|with))/i,
  thank: /\b(?:thank(?:s| you)|appreciate|grateful)\b/i,
  apologise: /\b(?:sorry|apologi[sz]e|apologies|my apologies|regret)\b/i,
  empathise: /\b(?:i (?:completely |totally |fully )?understand|i can (?:imagine|see (?:why|how))|that must (?:be|have been)|i hear you|i know how|sorry to hear|frustrating|that sounds (?:hard|difficult|stressful|frustrating))\b/i,
  farewell: /\b(?:goodbye|good ?bye|bye|have a (?:great|good|nice|wonderful|lovely) (?:day|evening|night|weekend|one|afternoon)|take care|talk (?:to you )?soon)\b/i,
  recap: /\b(?:to (?:summari[sz]e|recap)|let me (?:recap|summari[sz]e|repeat that back)|just to confirm|in summary|so to confirm|to sum up)\b/i,
  record: /\b(?:(?:call|conversation) (?:is|may be|might be|will be) (?:being )?recorded|recorded for (?:quality|training))\b/i,
  askName: /\b(?:who (?:am i|i am) (?:speaking|talking) (?:with|to)|who(?:'s| is) (?:calling|speaking|on the line)|(?:may|can|could) i (?:have|get|take|ask|know) (?:your|the) (?:full |first |last )?name|what(?:'s| is) your (?:full |first |last )?name|your (?:full )?name,? please|who do i have on the line)\b/i,
  // Asking for details that identify the caller: checking who they are.
  verify:
    /\b(?:confirm|verify|provide|give me|tell me|(?:can|could|may) i (?:have|get|take)|what(?:'s| is))\b[^.?!]{0,60}\b(?:date of birth|birth ?date|e-?mail(?: address)?|phone number|(?:postal |mailing |home )?address|post ?code|zip(?: code)?|last (?:four|4) digits|account number|customer number|member(?:ship)? (?:id|number)|policy number|security (?:question|answer|code)|passcode|password|pin|mother's maiden name)\b/i,
  // Telling someone what to do, one step after another.
  instruct:
    /\b(?:first(?:ly)?|then|next|after that|finally|step (?:one|two|three|1|2|3))\b,?\s+(?:\w+\s+){0,2}?(?:open|go|click|choose|select|press|tap|enter|type|clear|restart|reset|check|upload|install|log ?in|sign in|unplug|plug|turn|switch|update|delete|remove|try)\b/i,
  // The other side saying the problem is gone.
  resolved: /\b(?:(?:it|that|this|everything)(?:'s| is) (?:working|fixed|solved|resolved|sorted)(?: now)?|(?:it )?works now|(?:all|problem) (?:solved|fixed|sorted|resolved)|that (?:worked|did it|fixed it)|(?:it(?:'s| is)|that(?:'s| is)) (?:all )?(?:good|fine) now)\b/i,
  propose:
    /\b(?:(?:would|does|do|could|can|will) [^.?!]{0,40}\b(?:suit|work for|be good for|be convenient for|fit)|how about|shall we|why don'?t we|let'?s (?:schedule|book|set up|meet|plan|arrange|get)|i(?:'d| would) (?:suggest|recommend|propose)|i suggest|i recommend|can we (?:schedule|book|set up|meet)|the next step)\b/i,
  arrange:
    /\b(?:i(?:'ve| have) (?:booked|scheduled|set up|arranged|confirmed|put you down|sent)|you(?:'re| are) (?:all set|booked|confirmed|scheduled)|(?:is|are|has been|have been) (?:booked|confirmed|scheduled|arranged)|see you (?:on|then|next|tomorrow)|got you down|i(?:'ll| will) (?:send|email) you (?:the|an?) (?:invite|invitation|confirmation|calendar))\b/i,
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
  // A criterion asking for the caller's name is read as this word (offline/requirement-structure.ts).
  askName: ['askname'],
  verify: ['verify', 'verification', 'identity', 'identify', 'identification', 'authenticate', 'authentication', 'security'],
  instruct: ['instruction', 'instruct', 'step', 'walkthrough', 'guidance', 'guide'],
  resolved: ['resolve', 'resolved', 'solve', 'solved', 'fix', 'fixed', 'resolution'],
  echo: ['echo'],
  propose: ['propose', 'proposal', 'suggest', 'suggestion', 'recommend', 'recommendation'],
  arrange: ['arrange', 'arrangement', 'book', 'booking', 'schedule', 'confirm', 'confirmation'],
};

/**
 * A word every sentence doing the act holds, to skip the act's pattern cheaply on the others
 * (most sentences do none of these acts).
 */
const CUES: Record<keyof typeof PATTERNS, RegExp> = {
  greet: /hello|hi\b|hey|good|welcome|thank|greeting/i,
  introduce: /this is|name|i'm|i am|speaking|here|you're|you are/i,
  thank: /thank|appreciate|grateful/i,
  apologise: /sorry|apolog|regret/i,
  empathise: /understand|imagine|see|must|hear|know|sorry|frustrat|sounds/i,
  farewell: /bye|have a|take care|talk/i,
  recap: /summar|recap|confirm|repeat|sum up/i,
  record: /record/i,
  askName: /name|who/i,
  verify: /confirm|verify|provide|give me|tell me|can i|could i|may i|what/i,
  instruct: /first|then|next|after that|finally|step/i,
  resolved: /work|fix|solv|resolv|sort|did it|good|fine/i,
  propose: /suit|work for|good for|convenient|fit|how about|shall we|why don|let|suggest|recommend|can we|next step/i,
  arrange: /booked|scheduled|set up|arranged|confirmed|put you down|sent|all set|see you|got you|send|email/i,
};

export function speechActsOf(sentence: string): SpeechAct[] {
  const acts: SpeechAct[] = [];
  for (const act of Object.keys(PATTERNS) as Array<keyof typeof PATTERNS>) if (CUES[act].test(sentence) && PATTERNS[act].test(sentence)) acts.push(act);
  return acts;
}
