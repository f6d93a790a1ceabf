import { describe, expect, it } from 'vitest';
import { ActivityKind, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { activityScript, at, evaluation, FIRST_SCORING, received, RESCORING, TRANSCRIPT } from '../../test/support/pipeline-events.js';
import { evaluatedFact, receivedFact, transcribedFact } from './activity-facts.js';

const meeting = activityScript();
const call = activityScript({ kind: ActivityKind.ACTIVITY_KIND_CALL });

describe('receivedFact', () => {
  it('keeps what the lists show, with the representative’s e-mail in lower case', () => {
    expect(receivedFact(received(meeting), at(1))).toEqual({
      type: 'received',
      part: {
        receivedAt: at(1),
        kind: 'meeting',
        teamId: 'team-sales',
        occurredAt: at(0),
        representativeEmail: 'anna.lee@example.com',
        representativeName: 'Anna',
        contactId: 'lead-42',
        contactName: 'Mark Doe',
        contactCompany: 'Acme',
        contactRole: 'Head of Data',
        link: 'https://meet.example.com/abc',
        title: 'Renewal with Acme',
        fileName: 'renewal-acme.txt',
        media: 'text',
      },
    });
  });

  it('tells a recording from text, and takes the event’s time when the occurrence is unset', () => {
    const fact = receivedFact({ ...received(call), occurredAt: undefined, contact: undefined, mediaKind: MediaKind.MEDIA_KIND_AUDIO }, at(1));
    expect(fact).toMatchObject({ part: { kind: 'call', media: 'audio', occurredAt: at(1), contactId: '', contactName: '' } });
  });
});

describe('transcribedFact', () => {
  it('keeps a meeting’s transcript as timed speaker lines, and its duration in whole seconds', () => {
    expect(transcribedFact(meeting.kind, TRANSCRIPT, at(10))).toEqual({
      type: 'transcribed',
      part: {
        transcribedAt: at(10),
        durationSeconds: 755,
        transcript: '[0:00] Anna: Good morning, this is Anna.\n[1:05] Mark: We want to renew.\nAnna: Great, I will send the contract.',
      },
    });
  });

  it('keeps only the duration of a call', () => {
    expect(transcribedFact(call.kind, TRANSCRIPT, at(10))).toMatchObject({ part: { durationSeconds: 755, transcript: '' } });
  });
});

describe('evaluatedFact', () => {
  it('keeps the verdicts on criteria that applied, with the summary and improvements of a meeting', () => {
    expect(evaluatedFact(evaluation(meeting, FIRST_SCORING), at(21))).toEqual({
      type: 'evaluated',
      part: {
        evaluatedAt: at(20),
        score: 4,
        scriptMatch: null,
        isSuccessful: false,
        results: [
          { groupId: 'opening', criterionId: 'greeting', passed: true },
          { groupId: 'opening', criterionId: 'needs-analysis', passed: false },
        ],
        criteriaNeedingReview: 2,
        summary: 'Anna renewed Acme (4).',
        improvements: [{ groupId: 'opening', groupName: 'Opening', criteria: [{ criterionId: 'needs-analysis', criterionName: 'needs-analysis', suggestion: 'Work on needs-analysis.' }] }],
        durationSeconds: 750,
      },
    });
  });

  it('keeps a call’s summary and improvements too, which a shared summary e-mails', () => {
    const scored = evaluation(call, RESCORING);
    expect(evaluatedFact(scored, at(41))).toMatchObject({
      part: { score: 7.5, scriptMatch: 82.5, isSuccessful: true, summary: scored.summary!.text, improvements: scored.improvements },
    });
  });

  it('counts the verdicts that need review, inapplicable ones too, and none in an evaluation from before they were marked', () => {
    const scored = evaluation(meeting, RESCORING);
    expect(evaluatedFact(scored, at(41))).toMatchObject({ part: { criteriaNeedingReview: 1 } });
    expect(evaluatedFact(evaluation(meeting, { ...FIRST_SCORING, review: ['greeting', 'needs-analysis', 'next-steps'] }), at(21))).toMatchObject({ part: { criteriaNeedingReview: 3 } });
    // Scored before needs_review existed: fields 13 and 21 were never written (as proto3 writes
    // no false and no 0), and decode as false.
    const older = Evaluation.decode(Evaluation.encode({ ...scored, verdicts: scored.verdicts.map((verdict) => ({ ...verdict, needsReview: false })), reviewThreshold: 0 }).finish());
    expect(older.verdicts.every((verdict) => !verdict.needsReview)).toBe(true);
    expect(evaluatedFact(older, at(41))).toMatchObject({ part: { criteriaNeedingReview: 0 } });
  });

  it('takes the event’s time when the evaluation has none, and 0 s without statistics', () => {
    const untimed = { ...evaluation(meeting, FIRST_SCORING), evaluatedAt: undefined, statistics: undefined };
    expect(evaluatedFact(untimed, at(21))).toMatchObject({ part: { evaluatedAt: at(21), durationSeconds: 0 } });
  });
});
