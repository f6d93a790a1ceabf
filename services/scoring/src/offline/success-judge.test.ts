import { describe, expect, it } from 'vitest';
import { RENEWAL_CALL, transcriptOf, type Line } from '../../test/support/sample-calls.js';
import { readConversation } from './conversation.js';
import { judgeSuccess } from './success-judge.js';

const judge = (prompt: string, lines: readonly Line[]) => judgeSuccess(prompt, readConversation(transcriptOf(lines)));

describe('judgeSuccess', () => {
  it('is not judged (N/A) without a success prompt, never false', () => {
    expect(judge('', RENEWAL_CALL)).toEqual({ isSuccessful: undefined, reason: '', confidence: 0, evidence: [] });
    expect(judge('   ', RENEWAL_CALL).isSuccessful).toBeUndefined();
  });

  it('succeeds when the contact agrees, quoting the agreement', () => {
    const judgement = judge('The customer agrees to renew the subscription.', RENEWAL_CALL);
    expect(judgement.isSuccessful).toBe(true);
    expect(judgement.evidence[0]).toMatchObject({ quote: "Let's renew with the annual plan then.", segmentIndex: 7, speaker: 'Mark', startMs: 42_000 });
    expect(judgement.reason).toBe(`Mark agreed: "Let's renew with the annual plan then.".`);
  });

  it('takes a yes given in answer to a question about the subject', () => {
    const lines: Line[] = [
      ['Rita', 'Would you like to upgrade to the premium plan for your team?'],
      ['Ben', 'Yes, put me down for five seats.'],
    ];
    expect(judge('The contact agrees to upgrade to the premium plan.', lines).isSuccessful).toBe(true);
  });

  it('fails when the contact declines, and the last decision wins', () => {
    const declined: Line[] = [
      ['Rita', 'Would you be willing to upgrade today?'],
      ['Ben', "I'd love to upgrade, actually."],
      ['Rita', 'Wonderful, how many seats?'],
      ['Ben', "On second thought, I can't upgrade anything this month."],
    ];
    const judgement = judge('The contact agrees to upgrade.', declined);
    expect(judgement.isSuccessful).toBe(false);
    expect(judgement.reason).toContain('declined');
    expect(judgement.evidence[0]!.segmentIndex).toBe(3);
  });

  it('does not take hedges, questions or a zero amount for a yes', () => {
    for (const answer of ["Maybe I'll consider upgrading later.", 'How would I upgrade?', "I'll upgrade for $0."]) {
      const lines: Line[] = [
        ['Rita', 'Will you upgrade?'],
        ['Ben', answer],
      ];
      expect(judge('The contact agrees to upgrade.', lines).isSuccessful).toBe(false);
    }
  });

  it('counts the representative confirming the agreement', () => {
    const lines: Line[] = [
      ['Rita', 'Thank you so much for your upgrade, Ben!'],
      ['Ben', 'Happy to help.'],
    ];
    expect(judge('The contact agrees to upgrade.', lines)).toMatchObject({ isSuccessful: true, reason: 'Rita confirmed the agreement: "Thank you so much for your upgrade, Ben!".' });
  });

  it('fails with a reason when nobody decided anything', () => {
    const judgement = judge('The customer books a demo.', RENEWAL_CALL);
    expect(judgement).toMatchObject({ isSuccessful: false, evidence: [] });
    expect(judgement.reason).toMatch(/^No agreement found/);
  });
});

describe('outcomes in any department', () => {
  it('takes a day and time accepted as agreeing to a meeting, and a date of birth as nothing', () => {
    const booked: Line[] = [
      ['Sam', 'We help teams review calls faster. Could we set up a demo next week? How about Tuesday at 10?'],
      ['Dana', 'Tuesday at 10 works. Send me the invite.'],
      ['Sam', 'Great, thanks for your time!'],
    ];
    expect(judge('The prospect agrees to a follow-up meeting.', booked)).toMatchObject({ isSuccessful: true, reason: 'Dana agreed: "Tuesday at 10 works.".' });
    const politeClose: Line[] = [
      ['Sam', 'Could we set up a demo next month?'],
      ['Dana', 'No, we are fine for now.'],
      ['Sam', 'Okay. Thanks for your time!'],
    ];
    expect(judge('A follow-up meeting is booked.', politeClose)).toMatchObject({ isSuccessful: false, reason: 'Nothing said shows that a follow-up meeting is booked.' });
    expect(judge('The customer books a demo.', RENEWAL_CALL).isSuccessful).toBe(false);
  });

  it('takes the representative telling the contact that the outcome happened, or did not', () => {
    const moved: Line[] = [
      ['Rita', 'The panel liked your answers, so you are moved to the next round.'],
      ['Jordan', 'That is great news.'],
    ];
    expect(judge('The candidate moves to the next round.', moved)).toMatchObject({ isSuccessful: true, reason: 'Rita said so: "The panel liked your answers, so you are moved to the next round.".' });
    const notMoved: Line[] = [
      ['Rita', 'I am sorry, you are not moved to the next round this time.'],
      ['Jordan', 'I understand.'],
    ];
    expect(judge('The candidate moves to the next round.', notMoved)).toMatchObject({ isSuccessful: false, reason: 'Rita said it did not happen: "I am sorry, you are not moved to the next round this time.".' });
    const couldBe: Line[] = [
      ['Rita', 'You can move to the next round if the panel agrees.'],
      ['Jordan', 'Okay.'],
    ];
    expect(judge('The candidate moves to the next round.', couldBe).isSuccessful).toBe(false);
  });
});

describe('reading decisions', () => {
  const lastLine = (answer: string) =>
    judgeSuccess('The contact agrees to upgrade to the premium plan.', readConversation(transcriptOf([['Rita', 'Would you like to upgrade to the premium plan today?'], ['Ben', answer]]))).isSuccessful;

  it('reads litotes and amounts as yes, and zero or nothing as no', () => {
    expect(lastLine("I don't mind upgrading for a dollar more.")).toBe(true);
    expect(lastLine('$20 a month is fine.')).toBe(true);
    expect(lastLine('ok i am upgrading nothing')).toBe(false);
    expect(lastLine("I'll pay nothing extra.")).toBe(false);
  });

  it('does not take what someone usually does, or not knowing, for a decision', () => {
    expect(lastLine('I normally upgrade around $75 a year.')).toBe(false);
    expect(lastLine("I don't know.")).toBe(false);
  });

  it('does not take a no to a question that asks for no decision', () => {
    const lines: Line[] = [
      ['Rita', 'Would you like to upgrade today?'],
      ['Ben', 'Yes, I will upgrade for a dollar more.'],
      ['Rita', 'Thanks! Is there anything else you want to know about the premium plan?'],
      ['Ben', 'No, that is all.'],
    ];
    expect(judge('The contact agrees to upgrade to the premium plan.', lines).isSuccessful).toBe(true);
  });
});
