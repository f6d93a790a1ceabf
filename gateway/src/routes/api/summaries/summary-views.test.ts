import { describe, expect, it } from 'vitest';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { activitySummaryView, clockTime } from './summary-views.js';

const TRANSCRIPT: Transcript = {
  activityId: 'a-1',
  kind: ActivityKind.ACTIVITY_KIND_CALL,
  sourceFormat: 'speaker-lines',
  engine: 'text',
  durationMs: 0,
  speakers: [
    { label: 'Grace', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
    { label: 'Sam', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
  ],
  segments: [
    { speaker: 'Grace', startMs: 65_400, endMs: 70_000, text: 'Hello, this is Grace.', words: [] },
    { speaker: 'Sam', text: 'Hi, my order is late.', words: [] },
    { speaker: 'Robin', startMs: 3_725_000, text: 'Joining late.', words: [] },
  ],
  warnings: [],
};

const EVALUATION: Evaluation = {
  activityId: 'a-1',
  kind: ActivityKind.ACTIVITY_KIND_CALL,
  teamId: 'team-1',
  teamVersion: 2,
  representativeEmail: 'grace@example.com',
  score: 6,
  scriptMatch: undefined,
  isSuccessful: undefined,
  successReason: '',
  successConfidence: 0,
  successEvidence: [],
  verdicts: [
    {
      groupId: 'opening',
      criterionId: 'greeting',
      groupName: 'Opening',
      criterionName: 'Greeting',
      weight: 6,
      passed: true,
      applicable: true,
      confidence: 0.9,
      needsReview: false,
      reason: 'Greets the customer.',
      expected: '',
      suggestion: '',
      evidence: [{ quote: 'Hello', segmentIndex: 0, speaker: 'Grace', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, startMs: 65_400 }],
    },
    {
      groupId: 'closing',
      criterionId: 'thanks',
      groupName: 'Closing',
      criterionName: 'Thanks',
      weight: 4,
      passed: false,
      applicable: true,
      confidence: 0.7,
      needsReview: false,
      reason: 'No thanks.',
      expected: 'Thanks the customer.',
      suggestion: 'Thank Sam for waiting.',
      evidence: [],
    },
  ],
  summary: { text: 'Sam called about a late order.', participants: ['Grace (representative)', 'Sam (contact)'], discussion: 'A late order.', outcome: 'Open.', nextSteps: ['Call Sam back'] },
  improvements: [{ groupId: 'closing', groupName: 'Closing', criteria: [{ criterionId: 'thanks', criterionName: 'Thanks', suggestion: 'Thank Sam for waiting.' }] }],
  statistics: {
    speakers: [
      { speaker: 'Grace', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, words: 4, talkMs: 4_600, talkShare: 1, questions: 0, longestMonologueMs: 4_600, longestMonologueWords: 4, interruptions: 0, fillerWords: 0, fillerRate: 0, wordsPerMinute: 52.2 },
      { speaker: 'Sam', role: SpeakerRole.SPEAKER_ROLE_CONTACT, words: 5, talkMs: 0, talkShare: 0, questions: 0, longestMonologueMs: 0, longestMonologueWords: 5, interruptions: 0, fillerWords: 0, fillerRate: 0, wordsPerMinute: undefined },
    ],
    durationMs: 4_600,
    timed: true,
    wordTimings: false,
    representativeTalkShare: 1,
    longestMonologueSpeaker: 'Grace',
    longestMonologueMs: 4_600,
    longestMonologueWords: 4,
  },
  engine: 'offline-evidence',
  fallbackReason: '',
  insightTokens: 812,
  evaluatedAt: new Date('2026-11-23T10:00:00Z'),
  warnings: [],
  reviewThreshold: 0.7,
  successNeedsReview: false,
};

describe('activitySummaryView', () => {
  it('writes the transcript one line per segment, "Speaker: text", with "[m:ss] " where the segment has a time', () => {
    expect(activitySummaryView(TRANSCRIPT, undefined).transcript).toBe('[1:05] Grace: Hello, this is Grace.\nSam: Hi, my order is late.\n[1:02:05] Robin: Joining late.');
  });

  it('lists the segments with their roles, unknown for a speaker the transcript does not list', () => {
    expect(activitySummaryView(TRANSCRIPT, undefined).segments).toEqual([
      { index: 0, speaker: 'Grace', role: 'representative', startMs: 65_400, endMs: 70_000, text: 'Hello, this is Grace.' },
      { index: 1, speaker: 'Sam', role: 'contact', startMs: null, endMs: null, text: 'Hi, my order is late.' },
      { index: 2, speaker: 'Robin', role: 'unknown', startMs: 3_725_000, endMs: null, text: 'Joining late.' },
    ]);
  });

  it('answers an activity not yet scored with its transcript, an empty summary and no evaluation', () => {
    expect(activitySummaryView(TRANSCRIPT, undefined)).toMatchObject({ summary: '', improvements: [], evaluation: null });
  });

  it('gives the spec’s summary and improvements (group and criterion ids with suggestions), and the evaluation behind them', () => {
    const view = activitySummaryView(TRANSCRIPT, EVALUATION);
    expect(view.summary).toBe('Sam called about a late order.');
    expect(view.improvements).toEqual([{ id: 'closing', name: 'Closing', criteria: [{ id: 'thanks', name: 'Thanks', suggestion: 'Thank Sam for waiting.' }] }]);
    expect(view.evaluation).toMatchObject({
      score: 6,
      scriptMatch: null,
      isSuccessful: null,
      engine: 'offline-evidence',
      insightTokens: 812,
      evaluatedAt: '2026-11-23T10:00:00.000Z',
      summaryDetails: { participants: ['Grace (representative)', 'Sam (contact)'], discussion: 'A late order.', outcome: 'Open.', nextSteps: ['Call Sam back'] },
    });
    expect(view.evaluation?.verdicts[0]?.evidence).toEqual([{ quote: 'Hello', segmentIndex: 0, speaker: 'Grace', role: 'representative', startMs: 65_400 }]);
    expect(view.evaluation?.statistics?.speakers.map((speaker) => [speaker.role, speaker.wordsPerMinute])).toEqual([
      ['representative', 52.2],
      ['contact', null],
    ]);
  });

  it('shows an evaluation whose transcript is gone with an empty transcript', () => {
    expect(activitySummaryView(undefined, EVALUATION)).toMatchObject({ transcript: '', segments: [], summary: 'Sam called about a late order.' });
  });
});

describe('clockTime', () => {
  it('reads m:ss below the hour and h:mm:ss from it', () => {
    expect([clockTime(0), clockTime(9_999), clockTime(600_000), clockTime(3_599_999), clockTime(3_600_000)]).toEqual(['0:00', '0:09', '10:00', '59:59', '1:00:00']);
  });
});
