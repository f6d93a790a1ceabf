import { describe, expect, it } from 'vitest';
import type { CriterionVerdict } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { CLOSE_DEFAULTS, HUBSPOT_DEFAULTS, type CloseSettings } from './integrations.js';
import { closeWrites, hubspotWrites, noteMarker, scoreNote, writeRetryDelayMs, type ScoredActivity } from './writeback.js';

const SCORED_AT = new Date('2026-11-24T17:31:00.000Z');

function verdict(criterionName: string, weight: number, fields: Partial<CriterionVerdict> = {}): CriterionVerdict {
  return {
    groupId: 'g1',
    criterionId: criterionName,
    groupName: 'Discovery',
    criterionName,
    weight,
    passed: true,
    applicable: true,
    confidence: 0.9,
    needsReview: false,
    reason: '',
    expected: '',
    suggestion: '',
    evidence: [],
    ...fields,
  };
}

function scored(fields: Partial<ScoredActivity> = {}): ScoredActivity {
  return { activityId: 'act-1', score: 6.5, isSuccessful: true, verdicts: [], improvements: [], evaluatedAt: SCORED_AT, ...fields };
}

const WRITING: CloseSettings = { ...CLOSE_DEFAULTS, createActivities: true, updateLeadStatus: true, successfulCallStatus: 'stat_won', unsuccessfulCallStatus: 'stat_lost' };

describe('closeWrites', () => {
  it('writes a note and the status of a successful call', () => {
    const writes = closeWrites(WRITING, 'lead_1', scored());
    expect(writes).toEqual([
      { kind: 'close-note', leadId: 'lead_1', note: scoreNote(scored()), marker: noteMarker(scored()) },
      { kind: 'close-lead-status', leadId: 'lead_1', statusId: 'stat_won' },
    ]);
  });

  it('sets the unsuccessful status for an unsuccessful call', () => {
    expect(closeWrites({ ...WRITING, createActivities: false }, 'lead_1', scored({ isSuccessful: false }))).toEqual([{ kind: 'close-lead-status', leadId: 'lead_1', statusId: 'stat_lost' }]);
  });

  it('writes nothing the settings leave off', () => {
    expect(closeWrites(CLOSE_DEFAULTS, 'lead_1', scored())).toEqual([]);
  });

  it('sets no status when the call’s success is not known (no success prompt) or no status is chosen for it', () => {
    const statusOnly = { ...WRITING, createActivities: false };
    expect(closeWrites(statusOnly, 'lead_1', scored({ isSuccessful: undefined }))).toEqual([]);
    expect(closeWrites({ ...statusOnly, successfulCallStatus: '' }, 'lead_1', scored({ isSuccessful: true }))).toEqual([]);
  });

  it('writes nothing for a call without a lead', () => {
    expect(closeWrites(WRITING, '', scored())).toEqual([]);
  });
});

describe('scoreNote', () => {
  it('gives the score, the outcome, the failed criteria heaviest first, the top improvement and the marker', () => {
    const note = scoreNote(
      scored({
        verdicts: [
          verdict('Greeted by name', 1, { groupName: 'Opening' }),
          verdict('Agreed a next step', 2, { passed: false, groupName: 'Closing', suggestion: 'Propose a date for the demo.' }),
          verdict('Asked about the budget', 3, { passed: false, suggestion: ' Ask what budget they have set aside. ' }),
          verdict('Offered a refund', 2, { passed: false, applicable: false }),
        ],
      }),
    );
    expect(note).toBe(
      [
        'Parlance score: 6.5/10 (successful)',
        'Failed criteria: Asked about the budget (Discovery), Agreed a next step (Closing)',
        'Top improvement: Ask what budget they have set aside.',
        'Parlance activity act-1, scored 2026-11-24T17:31:00.000Z',
      ].join('\n'),
    );
  });

  it('says none failed, and leaves out the outcome when it is not known', () => {
    expect(scoreNote(scored({ score: 10, isSuccessful: undefined, verdicts: [verdict('Greeted by name', 10)] })).split('\n')).toEqual([
      'Parlance score: 10/10',
      'Failed criteria: none',
      'Parlance activity act-1, scored 2026-11-24T17:31:00.000Z',
    ]);
  });

  it('rounds the score to one decimal and marks an unsuccessful call', () => {
    expect(scoreNote(scored({ score: 3.04, isSuccessful: false })).split('\n')[0]).toBe('Parlance score: 3/10 (unsuccessful)');
    expect(scoreNote(scored({ score: 7.25 })).split('\n')[0]).toBe('Parlance score: 7.3/10 (successful)');
  });

  it('lists at most five failed criteria and counts the rest', () => {
    const verdicts = Array.from({ length: 7 }, (_, index) => verdict(`C${index + 1}`, 7 - index, { passed: false, groupName: '' }));
    expect(scoreNote(scored({ verdicts })).split('\n')[1]).toBe('Failed criteria: C1, C2, C3, C4, C5 and 2 more');
  });

  it('takes the top improvement from the Areas for Improvement when no failed criterion has a suggestion', () => {
    const note = scoreNote(
      scored({
        verdicts: [verdict('Asked about the budget', 3, { passed: false })],
        improvements: [{ groupId: 'g1', groupName: 'Discovery', criteria: [{ criterionId: 'c0', criterionName: 'x', suggestion: '  ' }, { criterionId: 'c1', criterionName: 'y', suggestion: 'Ask about the budget.' }] }],
      }),
    );
    expect(note).toContain('\nTop improvement: Ask about the budget.\n');
  });

  it('ends with a marker unique to the activity and its scoring time', () => {
    expect(noteMarker({ activityId: 'act-1', evaluatedAt: SCORED_AT })).not.toBe(noteMarker({ activityId: 'act-1', evaluatedAt: new Date(SCORED_AT.getTime() + 1) }));
    expect(scoreNote(scored()).endsWith(noteMarker(scored()))).toBe(true);
  });
});

describe('writeRetryDelayMs', () => {
  it('doubles from a minute to at most an hour', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(writeRetryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000]);
  });
});

describe('hubspotWrites', () => {
  const refs = { contactIds: ['c1', 'c2'], ownerId: 'own_anna' };

  it('always writes a note on the call and its contacts, for its owner', () => {
    expect(hubspotWrites({ ...HUBSPOT_DEFAULTS }, 'call_1', refs, scored())).toEqual([
      { kind: 'hubspot-note', contactIds: ['c1', 'c2'], callId: 'call_1', ownerId: 'own_anna', body: scoreNote(scored()), marker: noteMarker(scored()), at: '2026-11-24T17:31:00.000Z' },
    ]);
  });

  it('adds a follow-up task with the top improvement, due a day later, when createTasks is on', () => {
    const withImprovement = scored({ verdicts: [verdict('Asked about the budget', 3, { passed: false, suggestion: 'Ask about the budget.' })] });
    const [, task] = hubspotWrites({ ...HUBSPOT_DEFAULTS, createTasks: true }, 'call_1', refs, withImprovement);
    expect(task).toEqual({
      kind: 'hubspot-task',
      contactIds: ['c1', 'c2'],
      ownerId: 'own_anna',
      subject: 'Follow up on a call scored 6.5/10',
      body: `Top improvement: Ask about the budget.\n${noteMarker(withImprovement)}`,
      marker: noteMarker(withImprovement),
      dueAt: '2026-11-25T17:31:00.000Z',
    });
    expect(hubspotWrites({ ...HUBSPOT_DEFAULTS, createTasks: true }, 'call_1', refs, scored())[1]).toMatchObject({ body: `Nothing to improve: every criterion passed.\n${noteMarker(scored())}` });
  });

  it('writes nothing for a call without contacts', () => {
    expect(hubspotWrites({ ...HUBSPOT_DEFAULTS, createTasks: true }, 'call_1', { ownerId: 'own_anna' }, scored())).toEqual([]);
  });
});
