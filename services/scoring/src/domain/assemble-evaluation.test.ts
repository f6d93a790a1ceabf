import { describe, expect, it } from 'vitest';
import type { CriteriaGroup } from '@parlance/proto/parlance/identity/v1/teams';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import type { EvaluationInput, JudgedVerdict, Judgement } from '../engines/evaluation-engine.js';
import { criteriaNeedingReview } from '@parlance/platform/activity/criteria-needing-review';
import { DEFAULT_REVIEW_THRESHOLD } from './review.js';
import { assembleEvaluation, EVALUATION_WARNINGS, hasWordsToEvaluate, improvementsFrom } from './assemble-evaluation.js';
import { conversationStatistics } from './conversation-statistics.js';
import { measureScriptMatch } from './script-match.js';

const GROUPS: CriteriaGroup[] = [
  {
    id: 'opening',
    name: 'Opening',
    criteria: [
      { id: 'greeting', name: 'Greeting', prompt: 'Greets the customer.', weight: 2.5 },
      { id: 'verify', name: 'Verification', prompt: 'Verifies the account.', weight: 2.5 },
    ],
  },
  { id: 'handling', name: 'Handling', criteria: [{ id: 'refund', name: 'Refund policy', prompt: 'If asked for a refund, explains the policy.', weight: 2 }] },
  {
    id: 'closing',
    name: 'Closing',
    criteria: [
      { id: 'summary', name: 'Summary', prompt: 'Summarises the call.', weight: 1.5 },
      { id: 'thanks', name: 'Thanks', prompt: 'Thanks the customer.', weight: 1.5 },
    ],
  },
];

const TRANSCRIPT: Transcript = {
  activityId: 'a-1',
  kind: ActivityKind.ACTIVITY_KIND_MEETING,
  sourceFormat: 'webvtt',
  engine: 'text',
  durationMs: 9_000,
  speakers: [
    { label: 'Anna', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
    { label: 'John', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
  ],
  segments: [
    { speaker: 'Anna', startMs: 0, endMs: 4_000, text: 'Good morning, thank you for calling. Can I have your account number?', words: [] },
    { speaker: 'John', startMs: 4_500, endMs: 9_000, text: 'Sure, it is 1234. I need help with my invoice.', words: [] },
  ],
  warnings: [],
};

const input = (overrides: Partial<EvaluationInput['team']> = {}): EvaluationInput => ({
  activityId: 'a-1',
  kind: 'meeting',
  transcript: TRANSCRIPT,
  team: { id: 'team-1', version: 4, name: 'Support', department: 'support', criteriaGroups: GROUPS, successPrompt: 'Solved.', callScript: '', reviewThreshold: DEFAULT_REVIEW_THRESHOLD, ...overrides },
  representative: { email: 'anna@example.com', name: 'Anna' },
});

function verdict(groupId: string, criterionId: string, passed: boolean, extra: Partial<JudgedVerdict> = {}): JudgedVerdict {
  const group = GROUPS.find((candidate) => candidate.id === groupId)!;
  const criterion = group.criteria.find((candidate) => candidate.id === criterionId)!;
  return {
    groupId,
    criterionId,
    groupName: group.name,
    criterionName: criterion.name,
    weight: criterion.weight,
    passed,
    applicable: true,
    confidence: 0.8,
    reason: '',
    expected: passed ? '' : `Expected ${criterion.name}.`,
    suggestion: passed ? '' : `Do ${criterion.name}.`,
    evidence: [],
    ...extra,
  };
}

const judgement = (verdicts: JudgedVerdict[], extra: Partial<Judgement> = {}): Judgement => ({
  verdicts,
  success: { isSuccessful: false, reason: 'The invoice is still open.', confidence: 0.7, evidence: [{ quote: 'help with my invoice', segmentIndex: 1, speaker: 'John', role: SpeakerRole.SPEAKER_ROLE_CONTACT, startMs: 4_500 }] },
  summary: { text: 'Anna took a call about an invoice.', participants: ['Anna (representative)'], discussion: 'An invoice.', outcome: 'Open.', nextSteps: ['Send the invoice'] },
  engine: 'openai:gpt-4o-mini',
  fallbackReason: '',
  insightTokens: 2_048,
  warnings: ['The transcript was judged in 2 parts.'],
  ...extra,
});

const ALL_VERDICTS = [
  verdict('opening', 'greeting', true),
  verdict('opening', 'verify', false),
  // Inapplicable: no refund was asked for, so it counts as passed.
  verdict('handling', 'refund', true, { applicable: false }),
  verdict('closing', 'summary', false, { suggestion: '' }),
  verdict('closing', 'thanks', false),
];

describe('assembleEvaluation', () => {
  it('scores the weights of the passed criteria, inapplicable ones included', () => {
    expect(assembleEvaluation(input(), judgement(ALL_VERDICTS), new Date()).score).toBe(4.5);
    expect(assembleEvaluation(input(), judgement(ALL_VERDICTS.map((v) => ({ ...v, passed: true }))), new Date()).score).toBe(10);
  });

  it('marks a verdict below the review threshold as needing review, and scores it by the side it leans to', () => {
    const unsure = ALL_VERDICTS.map((v, index) => (index === 0 ? { ...v, confidence: 0.55 } : v));
    const evaluation = assembleEvaluation(input(), judgement(unsure), new Date());
    expect(evaluation.reviewThreshold).toBe(DEFAULT_REVIEW_THRESHOLD);
    expect(evaluation.verdicts.map((v) => v.needsReview)).toEqual(unsure.map((_, index) => index === 0));
    expect(criteriaNeedingReview(evaluation.verdicts)).toBe(1);
    expect(evaluation.score).toBe(4.5);
    // A team that trusts less of what the engine says sends more to review.
    expect(criteriaNeedingReview(assembleEvaluation(input(), judgement(unsure), new Date(), 0.85).verdicts)).toBe(unsure.length);
  });

  it('marks verdicts by the team’s own review threshold, and says which it used', () => {
    const mixed = ALL_VERDICTS.map((v, index) => ({ ...v, confidence: [0.55, 0.65, 0.75, 0.85, 0.95][index]! }));
    const needingReview = (reviewThreshold: number) => {
      const evaluation = assembleEvaluation(input({ reviewThreshold }), judgement(mixed), new Date());
      expect(evaluation.reviewThreshold).toBe(reviewThreshold);
      expect(evaluation.score).toBe(4.5);
      return evaluation.verdicts.map((v) => v.needsReview);
    };
    expect(needingReview(0.5)).toEqual([false, false, false, false, false]);
    expect(needingReview(0.7)).toEqual([true, true, false, false, false]);
    expect(needingReview(0.9)).toEqual([true, true, true, true, false]);
    // A confidence equal to the threshold is sure enough.
    expect(needingReview(0.95)).toEqual([true, true, true, true, false]);
  });

  it('marks the success verdict for review by the same threshold, never an N/A one', () => {
    const success = (confidence: number, isSuccessful: boolean | undefined) => judgement(ALL_VERDICTS, { success: { isSuccessful, reason: '', confidence, evidence: [] } });
    expect(assembleEvaluation(input(), success(0.55, true), new Date()).successNeedsReview).toBe(true);
    expect(assembleEvaluation(input(), success(0.7, false), new Date()).successNeedsReview).toBe(false);
    expect(assembleEvaluation(input({ reviewThreshold: 0.9 }), success(0.85, false), new Date())).toMatchObject({ isSuccessful: false, successNeedsReview: true });
    expect(assembleEvaluation(input(), success(0, undefined), new Date()).successNeedsReview).toBe(false);
  });

  it('carries what the engine judged and who judged it, with the activity, team version and time', () => {
    const evaluatedAt = new Date('2026-11-23T10:00:00Z');
    const evaluation = assembleEvaluation(input(), judgement(ALL_VERDICTS, { fallbackReason: 'the model timed out', engine: 'offline-evidence' }), evaluatedAt);
    expect(evaluation).toMatchObject({
      activityId: 'a-1',
      kind: ActivityKind.ACTIVITY_KIND_MEETING,
      teamId: 'team-1',
      teamVersion: 4,
      representativeEmail: 'anna@example.com',
      isSuccessful: false,
      successReason: 'The invoice is still open.',
      successConfidence: 0.7,
      engine: 'offline-evidence',
      fallbackReason: 'the model timed out',
      insightTokens: 2_048,
      evaluatedAt,
      warnings: ['The transcript was judged in 2 parts.'],
    });
    expect(evaluation.verdicts).toEqual(ALL_VERDICTS.map((verdict) => ({ ...verdict, needsReview: false })));
    expect(evaluation.successEvidence[0]?.quote).toBe('help with my invoice');
    expect(evaluation.summary?.nextSteps).toEqual(['Send the invoice']);
  });

  it('leaves success unset (N/A) when the engine did not judge it', () => {
    const evaluation = assembleEvaluation(input({ successPrompt: '' }), judgement(ALL_VERDICTS, { success: { isSuccessful: undefined, reason: '', confidence: 0, evidence: [] } }), new Date());
    expect(evaluation.isSuccessful).toBeUndefined();
  });

  it('measures the script match and the conversation statistics from the transcript, whatever the engine', () => {
    const script = 'Good morning, thank you for calling. Can I have your account number?';
    const evaluation = assembleEvaluation(input({ callScript: script }), judgement(ALL_VERDICTS), new Date());
    expect(evaluation.scriptMatch).toBe(measureScriptMatch(script, TRANSCRIPT));
    expect(evaluation.scriptMatch).toBeGreaterThan(0);
    expect(evaluation.statistics).toEqual(conversationStatistics(TRANSCRIPT));
    expect(assembleEvaluation(input({ callScript: '' }), judgement(ALL_VERDICTS), new Date()).scriptMatch).toBeUndefined();
  });

  it('scores a team without criteria 0, with no verdicts and a warning', () => {
    const evaluation = assembleEvaluation(input({ criteriaGroups: [] }), judgement([], { warnings: [] }), new Date());
    expect(evaluation).toMatchObject({ score: 0, verdicts: [], improvements: [], warnings: [EVALUATION_WARNINGS.noCriteria] });
  });

  it('puts the transcript’s warnings first, then the engine’s, then the team’s, each once', () => {
    const voices = 'The recording has one channel, so the speakers were told apart by their voices; where they talk over each other the labels may be wrong.';
    const noisy = 'Much of the recording is too noisy to hear; the transcript may miss words.';
    const transcript = { ...TRANSCRIPT, warnings: [voices, noisy] };
    const evaluation = assembleEvaluation(
      { ...input({ criteriaGroups: [] }), transcript },
      judgement([], { warnings: ['The transcript was judged in 2 parts.', noisy] }),
      new Date(),
    );
    expect(evaluation.warnings).toEqual([voices, noisy, 'The transcript was judged in 2 parts.', EVALUATION_WARNINGS.noCriteria]);
  });

  it('refuses a verdict for a criterion the team does not have', () => {
    expect(() => assembleEvaluation(input(), judgement([...ALL_VERDICTS, { ...ALL_VERDICTS[0]!, criterionId: 'invented' }]), new Date())).toThrow(/invented/);
  });

  it('never reports negative or fractional insight tokens', () => {
    expect(assembleEvaluation(input(), judgement(ALL_VERDICTS, { insightTokens: -5 }), new Date()).insightTokens).toBe(0);
    expect(assembleEvaluation(input(), judgement(ALL_VERDICTS, { insightTokens: 10.6 }), new Date()).insightTokens).toBe(11);
  });
});

describe('improvementsFrom', () => {
  it('groups the failed criteria by criteria group, in the team’s order, each with its suggestion', () => {
    // The engine's order does not matter: the team's does.
    expect(improvementsFrom(GROUPS, [...ALL_VERDICTS].reverse())).toEqual([
      { groupId: 'opening', groupName: 'Opening', criteria: [{ criterionId: 'verify', criterionName: 'Verification', suggestion: 'Do Verification.' }] },
      {
        groupId: 'closing',
        groupName: 'Closing',
        criteria: [
          // No suggestion: what was expected stands in for it.
          { criterionId: 'summary', criterionName: 'Summary', suggestion: 'Expected Summary.' },
          { criterionId: 'thanks', criterionName: 'Thanks', suggestion: 'Do Thanks.' },
        ],
      },
    ]);
  });

  it('suggests nothing when every criterion passed or did not apply', () => {
    expect(improvementsFrom(GROUPS, ALL_VERDICTS.map((v) => ({ ...v, passed: true })))).toEqual([]);
  });
});

describe('hasWordsToEvaluate', () => {
  const withTexts = (...texts: string[]): Transcript => ({ ...TRANSCRIPT, segments: texts.map((text) => ({ speaker: 'Anna', text, words: [] })) });

  it('is false for no segments, or segments with nothing but blanks and punctuation', () => {
    expect(hasWordsToEvaluate(withTexts())).toBe(false);
    expect(hasWordsToEvaluate(withTexts('', '  ', '… ?!', '—'))).toBe(false);
  });

  it('is true once any segment says something, in any script', () => {
    expect(hasWordsToEvaluate(withTexts('', 'ok'))).toBe(true);
    expect(hasWordsToEvaluate(withTexts('Здравствуйте'))).toBe(true);
    expect(hasWordsToEvaluate(withTexts('42'))).toBe(true);
  });
});
