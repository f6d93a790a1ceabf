import { describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import {
  criteria,
  CUSTOMER_CARE,
  INBOUND_SALES,
  inputOf,
  RENEWAL_CALL,
  SALES_CALL_DONE_POORLY,
  SALES_CALL_DONE_WELL,
  SUPPORT_CALL_DONE_POORLY,
  SUPPORT_CALL_DONE_WELL,
  type Line,
} from '../../test/support/sample-calls.js';
import { UnjudgeableActivityError } from '../engines/evaluation-engine.js';
import { createOfflineEngine, judgeOffline, OFFLINE_ENGINE_NAME, OFFLINE_MAX_WORDS } from './offline-engine.js';

const TEAM_CRITERIA = criteria(
  ['Greeting', 'Greet the customer and introduce yourself by name.'],
  ['Verification', 'Ask for the account number and date of birth before discussing the account.'],
  ['Free trial', 'Offer a free trial of the mobile app.'],
  ['Refunds', 'If the customer asks for a refund, explain the refund policy.'],
  ['Confirmation', 'Send the confirmation by SMS.'],
);

describe('the offline engine', () => {
  it('judges every criterion in the team’s order, each with a one-sentence reason', async () => {
    const judgement = await createOfflineEngine().judge(inputOf(RENEWAL_CALL, { criteriaGroups: TEAM_CRITERIA }), new AbortController().signal);
    expect(judgement.engine).toBe(OFFLINE_ENGINE_NAME);
    expect(judgement.fallbackReason).toBe('');
    expect(judgement.verdicts.map((verdict) => [verdict.criterionName, verdict.passed, verdict.applicable])).toEqual([
      ['Greeting', true, true],
      ['Verification', true, true],
      ['Free trial', false, true],
      ['Refunds', true, false],
      ['Confirmation', false, true],
    ]);
    for (const verdict of judgement.verdicts) {
      expect(verdict.reason).toMatch(/^(Met|Not met|Not applicable): [^\n]+\.$/);
      expect(verdict.confidence).toBeGreaterThanOrEqual(0.5);
      expect(verdict.confidence).toBeLessThanOrEqual(0.99);
      expect(verdict.groupName).toBe('Call quality');
    }
  });

  it('quotes evidence exactly from the segment it names, with speaker, role and time', async () => {
    const input = inputOf(RENEWAL_CALL, { criteriaGroups: TEAM_CRITERIA });
    const judgement = await createOfflineEngine().judge(input, new AbortController().signal);
    const evidence = judgement.verdicts.flatMap((verdict) => verdict.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    for (const piece of evidence) {
      const segment = input.transcript.segments[piece.segmentIndex]!;
      expect(segment.text).toContain(piece.quote);
      expect(piece.speaker).toBe(segment.speaker);
      expect(piece.startMs).toBe(segment.startMs);
      expect(piece.role).toBe(piece.speaker === 'Anna' ? SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE : SpeakerRole.SPEAKER_ROLE_CONTACT);
    }
    expect(judgement.verdicts[1]!.evidence[0]).toMatchObject({ segmentIndex: 2, quote: 'Could you confirm your account number and your date of birth, please?', startMs: 11_000 });
  });

  it('says what a failure expected and suggests what to do at a moment of the conversation', async () => {
    const judgement = await createOfflineEngine().judge(inputOf(RENEWAL_CALL, { criteriaGroups: TEAM_CRITERIA }), new AbortController().signal);
    const trial = judgement.verdicts[2]!;
    expect(trial.expected).toBe('Expected the representative to offer a free trial of the mobile app.');
    expect(trial.suggestion).toMatch(/^Offer a free trial of the mobile app, for example /);
    expect(trial.suggestion).toMatch(/"[^"]+" \(\d+:\d\d\)/);
    for (const verdict of judgement.verdicts.filter((found) => found.passed)) {
      expect(verdict.expected).toBe('');
      expect(verdict.suggestion).toBe('');
    }
  });

  it('tells a discovery call done well from one done poorly, by the demo sales team’s criteria', () => {
    const verdicts = (lines: readonly Line[]) => judgeOffline(inputOf(lines, INBOUND_SALES)).verdicts.map((verdict) => [verdict.criterionName, verdict.passed]);
    expect(verdicts(SALES_CALL_DONE_WELL)).toEqual([
      ['Greeting', true],
      ['Rapport', true],
      ['Needs discovery', true],
      ['Value proposition', true],
      ['Objection handling', true],
      ['Next steps', true],
    ]);
    expect(verdicts(SALES_CALL_DONE_POORLY).filter(([, passed]) => passed)).toEqual([]);
    const judgement = judgeOffline(inputOf(SALES_CALL_DONE_WELL, INBOUND_SALES));
    expect(judgement.success.isSuccessful).toBe(true);
    expect(judgeOffline(inputOf(SALES_CALL_DONE_POORLY, INBOUND_SALES)).success.isSuccessful).toBe(false);
  });

  it('tells a support call done well from one done poorly, by the demo care team’s criteria', () => {
    const judged = (lines: readonly Line[]) => judgeOffline(inputOf(lines, CUSTOMER_CARE));
    const well = judged(SUPPORT_CALL_DONE_WELL);
    expect(well.verdicts.map((verdict) => [verdict.criterionName, verdict.passed])).toEqual([
      ['Verification', true],
      ['Empathy', true],
      ['Troubleshooting', true],
      ['Confirmation', true],
    ]);
    expect(well.success).toMatchObject({ isSuccessful: true, reason: 'Priya agreed: "Yes, all solved, thank you!".' });
    const poorly = judged(SUPPORT_CALL_DONE_POORLY);
    expect(poorly.verdicts.filter((verdict) => verdict.passed)).toEqual([]);
    expect(poorly.success).toMatchObject({ isSuccessful: false, reason: 'Nothing said shows that the customer’s problem is resolved, or a ticket with a follow-up time is agreed.' });
    // "Yes, that is the problem." agrees with a statement; it resolves nothing.
  });

  it('judges success and summarises', async () => {
    const judgement = await createOfflineEngine().judge(inputOf(RENEWAL_CALL, { successPrompt: 'The customer agrees to the annual plan.' }), new AbortController().signal);
    expect(judgement.success.isSuccessful).toBe(true);
    expect(judgement.summary.text).toMatch(/^Call between Anna \(representative\) and Mark \(contact\)\./);
    expect(judgement.insightTokens).toBeGreaterThan(0);
  });

  it('answers for a team without criteria and for a transcript nobody represents, with a warning', async () => {
    const lines: Line[] = [
      ['Speaker 1', 'Hello there, thanks for joining.'],
      ['Speaker 2', 'Happy to be here.'],
    ];
    const input = inputOf(lines, { criteriaGroups: [], successPrompt: '' });
    for (const speaker of input.transcript.speakers) speaker.role = SpeakerRole.SPEAKER_ROLE_UNSPECIFIED;
    const judgement = judgeOffline(input);
    expect(judgement.verdicts).toEqual([]);
    expect(judgement.success.isSuccessful).toBeUndefined();
    expect(judgement.warnings).toEqual(['No speaker was recognised as the representative, so every speaker was read as one.']);
  });

  it('refuses a transcript longer than it reads, with a reason a person can read', () => {
    const words = Array.from({ length: OFFLINE_MAX_WORDS + 1 }, () => 'word').join(' ');
    expect(() => judgeOffline(inputOf([['Anna', words]]))).toThrow(UnjudgeableActivityError);
    expect(() => judgeOffline(inputOf([['Anna', words]]))).toThrow('the transcript has 100,001 words, more than the 100,000 the offline evaluator reads');
  });

  it('stops before judging when the work is abandoned', async () => {
    const controller = new AbortController();
    controller.abort(new Error('The activity was deleted.'));
    await expect(createOfflineEngine().judge(inputOf(RENEWAL_CALL), controller.signal)).rejects.toThrow('The activity was deleted.');
  });
});
