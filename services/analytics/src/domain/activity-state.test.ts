import { describe, expect, it } from 'vitest';
import {
  activityScript,
  at,
  evaluation,
  FIRST_SCORING,
  received,
  RESCORING,
  teamChanged,
  TRANSCRIPT,
} from '../../test/support/pipeline-events.js';
import { seededRandom } from '@parlance/platform/testing/seeded-random';
import { shuffledWithRepeats } from '../../test/support/shuffle.js';
import { evaluatedFact, receivedFact, transcribedFact } from './activity-facts.js';
import {
  activityDurationSeconds,
  activityStatus,
  mergeActivityFact,
  UNKNOWN_ACTIVITY,
  type ActivityFact,
  type ActivityState,
} from './activity-state.js';
import { mergeTeamChange, teamStateOf, type TeamState } from './team-state.js';

const script = activityScript();
const RECEIVED = receivedFact(received(script), at(1));
const TRANSCRIBED = transcribedFact(script.kind, TRANSCRIPT, at(10));
const SCORED = evaluatedFact(evaluation(script, FIRST_SCORING), at(20));
const RESCORED = evaluatedFact(evaluation(script, RESCORING), at(40));
const TRANSCRIPTION_FAILED: ActivityFact = { type: 'failed', at: at(2) };
const SCORING_FAILED: ActivityFact = { type: 'failed', at: at(15) };
const DELETED: ActivityFact = { type: 'deleted', at: at(50) };

const merged = (facts: ActivityFact[], from: ActivityState = UNKNOWN_ACTIVITY) => facts.reduce(mergeActivityFact, from);

describe('mergeActivityFact', () => {
  it('gives each event its own part and leaves the others alone', () => {
    const state = merged([RECEIVED, TRANSCRIBED, SCORED]);
    expect(state.received).toMatchObject({ kind: 'meeting', teamId: 'team-sales', occurredAt: at(0), representativeEmail: 'anna.lee@example.com' });
    expect(state.transcribed).toMatchObject({ durationSeconds: 755 });
    expect(state.evaluated).toMatchObject({ score: 4 });
    expect(merged([SCORED, TRANSCRIBED, RECEIVED])).toEqual(state);
  });

  it('keeps the evaluation made last, whichever arrives last', () => {
    expect(merged([SCORED, RESCORED]).evaluated).toEqual(merged([RESCORED, SCORED]).evaluated);
    expect(merged([RESCORED, SCORED]).evaluated).toMatchObject({ score: 7.5, evaluatedAt: at(40), criteriaNeedingReview: 1 });
  });

  it('replaces a receipt or a transcript only with a later one', () => {
    const moved = receivedFact({ ...received(script), teamId: 'team-support' }, at(5));
    expect(merged([moved, RECEIVED]).received?.teamId).toBe('team-support');
    expect(merged([RECEIVED, moved]).received?.teamId).toBe('team-support');
    const retranscribed = transcribedFact(script.kind, { ...TRANSCRIPT, durationMs: 60_000 }, at(12));
    expect(merged([retranscribed, TRANSCRIBED]).transcribed?.durationSeconds).toBe(60);
  });

  it('changes nothing when an event comes again', () => {
    const state = merged([RECEIVED, TRANSCRIBED, SCORED, SCORING_FAILED]);
    expect(merged([RECEIVED, TRANSCRIBED, SCORED, SCORING_FAILED], state)).toEqual(state);
  });

  it('keeps the earliest failure', () => {
    expect(merged([SCORING_FAILED, TRANSCRIPTION_FAILED]).failedAt).toEqual(at(2));
    expect(merged([TRANSCRIPTION_FAILED, SCORING_FAILED]).failedAt).toEqual(at(2));
  });

  it('empties a deleted activity for good: nothing before or after the deletion is kept', () => {
    const tombstone = { ...UNKNOWN_ACTIVITY, deletedAt: at(50) };
    expect(merged([RECEIVED, TRANSCRIBED, SCORED, DELETED])).toEqual(tombstone);
    expect(merged([DELETED, RECEIVED, TRANSCRIBED, SCORED, SCORING_FAILED])).toEqual(tombstone);
    expect(merged([DELETED, { type: 'deleted', at: at(45) }]).deletedAt).toEqual(at(45));
  });
});

describe('activityStatus', () => {
  it('reads processing until scored or failed', () => {
    expect(activityStatus(merged([RECEIVED, TRANSCRIBED]))).toBe('processing');
  });

  it('reads failed after a failure, and scored once scored, whatever came first', () => {
    expect(activityStatus(merged([RECEIVED, SCORING_FAILED]))).toBe('failed');
    expect(activityStatus(merged([RECEIVED, SCORING_FAILED, SCORED]))).toBe('scored');
    expect(activityStatus(merged([RECEIVED, SCORED, SCORING_FAILED]))).toBe('scored');
  });
});

describe('activityDurationSeconds', () => {
  it('is 0 while unknown', () => {
    expect(activityDurationSeconds(merged([RECEIVED]))).toBe(0);
  });

  it('takes the transcript’s duration over the one scoring measured, in either order', () => {
    expect(activityDurationSeconds(merged([SCORED]))).toBe(750);
    expect(activityDurationSeconds(merged([SCORED, TRANSCRIBED]))).toBe(755);
    expect(activityDurationSeconds(merged([TRANSCRIBED, SCORED]))).toBe(755);
  });

  it('falls back to scoring’s measure when the transcript has no times', () => {
    const untimed = transcribedFact(script.kind, { ...TRANSCRIPT, durationMs: 0 }, at(10));
    expect(activityDurationSeconds(merged([untimed, SCORED]))).toBe(750);
  });
});

describe('mergeTeamChange', () => {
  const version = (n: number, department = 'sales') => teamStateOf(teamChanged('team-sales', n, department));

  it('takes only a higher version', () => {
    expect(mergeTeamChange(version(2), version(1))).toEqual(version(2));
    expect(mergeTeamChange(version(1, 'hr'), version(2))).toEqual(version(2));
    expect(mergeTeamChange(undefined, version(1))).toEqual(version(1));
  });

  it('refuses a change that carries no team', () => {
    expect(() => teamStateOf({ team: undefined, members: [], deleted: false })).toThrow('no team');
  });
});

/**
 * Every order of delivery, with repeats, must end in the same state. The orders are drawn from a
 * seeded generator so that a failure can be replayed.
 */
describe('convergence', () => {
  const TEAM_CHANGES = [1, 2, 3].map((n) => teamStateOf(teamChanged('team-sales', n, n === 3 ? 'support' : 'sales')));
  type Delivery = { activity: ActivityFact } | { team: TeamState };
  const PIPELINE: Delivery[] = [
    ...[RECEIVED, TRANSCRIPTION_FAILED, TRANSCRIBED, SCORING_FAILED, SCORED, RESCORED].map((activity) => ({ activity })),
    ...TEAM_CHANGES.map((team) => ({ team })),
  ];

  function deliver(deliveries: Delivery[]) {
    let activity = UNKNOWN_ACTIVITY;
    let team: TeamState | undefined;
    for (const delivery of deliveries) {
      if ('activity' in delivery) activity = mergeActivityFact(activity, delivery.activity);
      else team = mergeTeamChange(team, delivery.team);
    }
    return { activity, team, status: activityStatus(activity), durationSeconds: activityDurationSeconds(activity) };
  }

  it('ends in the same state for 500 shuffled deliveries with repeats', () => {
    const random = seededRandom(20261005);
    const expected = deliver(PIPELINE);
    expect(expected).toMatchObject({ status: 'scored', durationSeconds: 755, team: { version: 3, department: 'support' } });
    expect(expected.activity.evaluated).toMatchObject({ score: 7.5, evaluatedAt: at(40) });
    expect(expected.activity.failedAt).toEqual(at(2));
    for (let run = 0; run < 500; run += 1) {
      expect(deliver(shuffledWithRepeats(PIPELINE, random))).toEqual(expected);
    }
  });

  it('ends deleted, holding nothing, for 500 shuffled deliveries that include the deletion', () => {
    const random = seededRandom(5);
    const withDeletion: Delivery[] = [...PIPELINE, { activity: DELETED }];
    for (let run = 0; run < 500; run += 1) {
      const { activity, team } = deliver(shuffledWithRepeats(withDeletion, random));
      expect(activity).toEqual({ ...UNKNOWN_ACTIVITY, deletedAt: at(50) });
      expect(team).toEqual(TEAM_CHANGES[2]);
    }
  });
});
