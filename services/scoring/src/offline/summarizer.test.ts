import { describe, expect, it } from 'vitest';
import { RENEWAL_CALL, transcriptOf } from '../../test/support/sample-calls.js';
import { readConversation } from './conversation.js';
import { summarise } from './summarizer.js';

const notJudged = { isSuccessful: undefined, reason: '', confidence: 0, evidence: [] };
const spoken = RENEWAL_CALL.map(([, text]) => text).join(' ');

describe('summarise', () => {
  it('says who spoke, what it was about, its key points, the outcome and the next steps', () => {
    const success = { isSuccessful: true, reason: 'Mark agreed to renew.', confidence: 0.9, evidence: [] };
    const summary = summarise(readConversation(transcriptOf(RENEWAL_CALL)), { kind: 'call', success });
    expect(summary.participants).toEqual(['Anna (representative)', 'Mark (contact)']);
    expect(summary.outcome).toBe('Successful. Mark agreed to renew.');
    expect(summary.nextSteps).toContain(`Anna: "I'll send you the renewal contract by email today and we will schedule a training session next Tuesday."`);
    expect(summary.text.startsWith('Call between Anna (representative) and Mark (contact).')).toBe(true);
    expect(summary.text).toContain(summary.discussion);
    expect(summary.discussion).toMatch(/^It was mainly about /);
  });

  it('names no person, no courtesy and no word it does not know as a topic', () => {
    const summary = summarise(
      readConversation(
        transcriptOf([
          ['Oliver', 'Good morning Dana, thanks for your time, mm-hmm. Oliver here from Wingtip in Leeds.'],
          ['Dana', 'Morning Oliver. Our refund backlog is the problem, the refund queue keeps growing.'],
          ['Oliver', 'Our refund tool clears a refund queue in hours.'],
        ]),
      ),
      { kind: 'call', success: notJudged },
    );
    const topics = /^It was mainly about ([^.]+)\./.exec(summary.discussion)![1]!;
    expect(topics).toContain('refund');
    for (const word of ['oliver', 'dana', 'wingtip', 'leeds', 'morning', 'thanks', 'time', 'mm-hmm']) expect(topics.toLowerCase()).not.toContain(word);
  });

  it('takes decisions and actions as key points before talk, and no courtesy at all', () => {
    const summary = summarise(
      readConversation(
        transcriptOf([
          ['Chair', 'Okay, that is really helpful, thank you so much.'],
          ['Ines', 'We will cap temporary staff in the warehouse at ten percent of the budget from next quarter.'],
          ['Chair', 'The warehouse budget report shows the overrun came from temporary staff in the third quarter.'],
          ['Ines', 'The warehouse budget overran by twelve percent in the third quarter of the year.'],
          ['Chair', 'Thank you, that is very kind of you.'],
        ]),
      ),
      { kind: 'meeting', success: notJudged },
    );
    expect(summary.discussion).toContain('"We will cap temporary staff in the warehouse at ten percent of the budget from next quarter."');
    expect(summary.discussion).not.toMatch(/thank you/i);
  });

  it('quotes only what was said', () => {
    const summary = summarise(readConversation(transcriptOf(RENEWAL_CALL)), { kind: 'call', success: notJudged });
    for (const [, quote] of summary.discussion.matchAll(/said: "([^"]+)"/g)) expect(spoken).toContain(quote);
  });

  it('names a meeting’s participants without roles and takes a stated decision as its outcome', () => {
    const lines = [
      ['Priya', 'Let us review the launch plan for the new remote control.'],
      ['Tom', 'The prototype battery lasts two weeks, which is below our target.'],
      ['Priya', 'We decided to switch to the larger battery.'],
      ['Tom', 'I will update the design documents by Friday.'],
    ] as const;
    const summary = summarise(readConversation(transcriptOf(lines)), { kind: 'meeting', success: notJudged });
    expect(summary.participants).toEqual(['Priya', 'Tom']);
    expect(summary.outcome).toBe('Priya: "We decided to switch to the larger battery."');
    expect(summary.text).toMatch(/^Meeting between Priya and Tom\./);
  });

  it('leaves non-speech marks and hesitations out of quotes', () => {
    const lines = [
      ['Ana', 'So um {vocalsound} the uh budget for the new dashboards is [inaudible] twelve thousand euros per year.'],
      ['Joe', 'That budget for the dashboards works for our finance team this year.'],
    ] as const;
    const summary = summarise(readConversation(transcriptOf(lines)), { kind: 'meeting', success: notJudged });
    expect(summary.discussion).not.toMatch(/\bum\b|\buh\b|vocalsound|inaudible/);
  });

  it('says there is nothing to summarise for an empty transcript', () => {
    expect(summarise(readConversation(transcriptOf([])), { kind: 'call', success: notJudged })).toEqual({
      text: 'The call has no words to summarise.',
      participants: [],
      discussion: '',
      outcome: '',
      nextSteps: [],
    });
  });
});
