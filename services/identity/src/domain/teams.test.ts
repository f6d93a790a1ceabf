import { describe, expect, it } from 'vitest';
import { DomainError } from '@parlance/platform/errors';
import { REVIEW_THRESHOLD } from '@parlance/platform/team/team-rules';
import {
  checkTeam,
  memberEmails,
  parseTarget,
  reviewThresholdAfterSave,
  TEAM_MESSAGES,
  type CriterionDraft,
  type TeamDraft,
  type TeamMemberDraft,
} from './teams.js';

let counter = 0;
const context = { departments: ['sales', 'hr', 'support'], newId: () => `generated-${++counter}` };

const validTeam = (): TeamDraft => ({
  id: 'team-1',
  name: 'Inbound sales',
  department: 'sales',
  successPrompt: 'The customer agrees to a demo or a purchase.',
  callScript: 'Hello, this is Parlance. How can I help you today?',
  crmId: '',
  criteriaGroups: [
    {
      id: 'opening',
      name: 'Opening',
      criteria: [
        { id: 'greeting', name: 'Greeting', prompt: 'The representative greets the customer by name.', weightText: '3' },
        { id: 'intro', name: 'Introduction', prompt: 'The representative says their name and the company name.', weightText: '2,5' },
      ],
    },
    {
      id: 'closing',
      name: 'Closing',
      criteria: [{ id: 'next-steps', name: 'Next steps', prompt: 'The representative agrees a concrete next step and date.', weightText: '4.5' }],
    },
  ],
});

const validMember = (overrides: Partial<TeamMemberDraft> = {}): TeamMemberDraft => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  crmId: '',
  targetText: '5',
  ...overrides,
});

/** The message a save is refused with. */
function refusal(team: TeamDraft, members: TeamMemberDraft[] | undefined = [validMember()]): string {
  try {
    checkTeam(team, members, context);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('invalid-argument');
    return (error as DomainError).message;
  }
  throw new Error('the team was accepted');
}

/** The valid team with one criterion changed (by default the first of the second group). */
function withCriterion(change: Partial<CriterionDraft>, groupIndex = 1, criterionIndex = 0): TeamDraft {
  const team = validTeam();
  const group = team.criteriaGroups![groupIndex]!;
  group.criteria[criterionIndex] = { ...group.criteria[criterionIndex]!, ...change };
  return team;
}

describe('checkTeam accepts a well-formed team', () => {
  it('normalises weights with a comma or a dot and keeps ids', () => {
    const { team, members } = checkTeam(validTeam(), [validMember({ email: ' Grace@Example.COM ', targetText: '' })], context);
    expect(team.criteriaGroups.flatMap((g) => g.criteria.map((c) => c.weight))).toEqual([3, 2.5, 4.5]);
    expect(team.id).toBe('team-1');
    expect(members).toEqual([{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', crmId: '', target: 0 }]);
    expect(memberEmails(members!)).toEqual(['grace@example.com']);
  });

  it("treats 'new' and an empty id as a team to be named", () => {
    expect(checkTeam({ ...validTeam(), id: 'new' }, [], context).team.id).toBeUndefined();
    expect(checkTeam({ ...validTeam(), id: '' }, [], context).team.id).toBeUndefined();
  });

  it('gives groups and criteria sent without an id a fresh one', () => {
    const team = validTeam();
    team.criteriaGroups![0]!.id = '';
    team.criteriaGroups![0]!.criteria[0]!.id = '';
    const checked = checkTeam(team, [], context).team;
    expect(checked.criteriaGroups[0]!.id).toMatch(/^generated-/);
    expect(checked.criteriaGroups[0]!.criteria[0]!.id).toMatch(/^generated-/);
  });

  it('adds decimal weights exactly (3.3 + 3.3 + 3.4 is 10)', () => {
    const team = validTeam();
    team.criteriaGroups = [
      {
        id: 'g',
        name: 'All',
        criteria: ['3.3', '3,3', '3.4'].map((weightText, i) => ({ id: `c${i}`, name: `Criterion ${i}`, prompt: 'Something checkable happens.', weightText })),
      },
    ];
    expect(checkTeam(team, [], context).team.criteriaGroups[0]!.criteria.map((c) => c.weight)).toEqual([3.3, 3.3, 3.4]);
  });

  it('allows an empty call script and keeps members undefined when none were sent', () => {
    const checked = checkTeam({ ...validTeam(), callScript: '' }, undefined, context);
    expect(checked.team.callScript).toBe('');
    expect(checked.members).toBeUndefined();
  });

  it('accepts weights of 0 and 10', () => {
    const team = validTeam();
    team.criteriaGroups = [
      {
        id: 'g',
        name: 'All',
        criteria: [
          { id: 'a', name: 'Everything', prompt: 'The representative does everything.', weightText: '10' },
          { id: 'b', name: 'Nothing', prompt: 'The representative does nothing at all.', weightText: '0' },
        ],
      },
    ];
    expect(checkTeam(team, [], context).team.criteriaGroups[0]!.criteria.map((c) => c.weight)).toEqual([10, 0]);
  });
});

describe('checkTeam refuses with the spec’s message (indexes one-based)', () => {
  it('an empty criterion name', () => {
    expect(refusal(withCriterion({ name: '  ' }))).toBe('Please enter a name for criterion #1 in criteria group #2');
  });

  it('an empty criterion prompt', () => {
    expect(refusal(withCriterion({ prompt: '' }, 0, 1))).toBe('Please enter a description for criterion #2 in criteria group #1');
  });

  it('an empty group name', () => {
    const team = validTeam();
    team.criteriaGroups![1]!.name = '';
    expect(refusal(team)).toBe('Please enter a name for criteria group #2');
  });

  it('a weight below 0', () => {
    expect(refusal(withCriterion({ weightText: '-0.5' }))).toBe('Weight for criterion #1 in criteria group #2 must be at least 0');
  });

  it('a weight above 10', () => {
    expect(refusal(withCriterion({ weightText: '10,5' }))).toBe('Weight for criterion #1 in criteria group #2 must not exceed 10');
  });

  it.each(['abc', '', '1.2.3', '5 points', 'NaN', 'Infinity', '1e1'])('a weight that is not a number (%j)', (weightText) => {
    expect(refusal(withCriterion({ weightText }))).toBe('Please enter a valid weight (0-10) for criterion #1 in criteria group #2');
  });

  it('a missing team name', () => {
    expect(refusal({ ...validTeam(), name: ' ' })).toBe('Please enter a team name');
  });

  it('a missing department', () => {
    expect(refusal({ ...validTeam(), department: '' })).toBe('Please select a department');
  });

  it('a department the company does not have', () => {
    expect(refusal({ ...validTeam(), department: 'legal' })).toBe('The department "legal" is not one of your company\'s departments');
  });

  it('missing success criteria', () => {
    expect(refusal({ ...validTeam(), successPrompt: '' })).toBe('Please enter success criteria description');
  });

  it('no call script field at all', () => {
    expect(refusal({ ...validTeam(), callScript: undefined })).toBe('Please enter a call script');
  });

  it('a member without a valid e-mail', () => {
    expect(refusal(validTeam(), [validMember(), validMember({ firstName: 'Ada', email: 'ada-at-example' })])).toBe(
      'Please enter a valid email for team member #2',
    );
  });

  it('a member without a first name', () => {
    expect(refusal(validTeam(), [validMember({ firstName: '' })])).toBe('Please enter a first name for team member #1');
  });

  it('a member without a last name', () => {
    expect(refusal(validTeam(), [validMember({ lastName: ' ' })])).toBe('Please enter a last name for team member #1');
  });

  it.each(['-1', '2.5', 'five', '100001'])('a member target that is not a whole number from 0 (%j)', (targetText) => {
    expect(refusal(validTeam(), [validMember({ targetText })])).toBe('Please enter a valid target for team member #1');
  });

  it('any other member problem', () => {
    expect(refusal(validTeam(), [validMember({ crmId: 'x'.repeat(201) })])).toBe('Please check the information for team member #1');
  });

  it('no criteria group', () => {
    expect(refusal({ ...validTeam(), criteriaGroups: [] })).toBe('Please add at least one criteria group');
    expect(refusal({ ...validTeam(), criteriaGroups: undefined })).toBe('Please add at least one criteria group');
  });

  it('an empty criteria group', () => {
    const team = validTeam();
    team.criteriaGroups![1]!.criteria = [];
    expect(refusal(team)).toBe('Please add at least one criterion to criteria group #2');
  });

  it('a team name that is too short', () => {
    expect(refusal({ ...validTeam(), name: 'A' })).toBe('Team name is too short');
  });

  it('a criterion name that is too short', () => {
    expect(refusal(withCriterion({ name: 'X' }))).toBe('Criterion name or description is too short');
  });

  it('a criterion description that is too short', () => {
    expect(refusal(withCriterion({ prompt: 'Greet.' }))).toBe('Criterion name or description is too short');
  });

  it('a member name that is too short', () => {
    expect(refusal(validTeam(), [validMember({ lastName: 'H' })])).toBe('Team member name is too short');
  });

  it('a team name over 100 characters', () => {
    expect(() => checkTeam({ ...validTeam(), name: 'n'.repeat(100) }, [], context)).not.toThrow();
    expect(refusal({ ...validTeam(), name: 'n'.repeat(101) })).toBe('Team name must not exceed 100 characters');
  });

  it('a criterion description over 500 characters', () => {
    expect(() => checkTeam(withCriterion({ prompt: 'p'.repeat(500) }), [], context)).not.toThrow();
    expect(refusal(withCriterion({ prompt: 'p'.repeat(501) }))).toBe('Criterion descriptions must not exceed 500 characters.');
  });

  it('a success prompt over 500 characters', () => {
    expect(refusal({ ...validTeam(), successPrompt: 's'.repeat(501) })).toBe('Success criteria prompt must not exceed 500 characters.');
  });

  it('a call script over 10,000 characters', () => {
    expect(() => checkTeam({ ...validTeam(), callScript: 'w'.repeat(10_000) }, [], context)).not.toThrow();
    expect(refusal({ ...validTeam(), callScript: 'w'.repeat(10_001) })).toBe('Call script must not exceed 10,000 characters');
  });

  it('a criterion name over 100 characters', () => {
    expect(() => checkTeam(withCriterion({ name: 'c'.repeat(100) }), [], context)).not.toThrow();
    expect(refusal(withCriterion({ name: 'c'.repeat(101) }))).toBe('Criterion names must not exceed 100 characters.');
  });

  it('a member name over 100 characters', () => {
    expect(() => checkTeam(validTeam(), [validMember({ firstName: 'f'.repeat(100) })], context)).not.toThrow();
    expect(refusal(validTeam(), [validMember({ firstName: 'f'.repeat(101) })])).toBe('Each team member name must be between 2 and 100 characters.');
  });

  it('two members with the same name', () => {
    expect(refusal(validTeam(), [validMember(), validMember({ firstName: 'grace ', email: 'other@example.com' })])).toBe('Team member names must be unique.');
  });

  it('two members with the same e-mail', () => {
    expect(refusal(validTeam(), [validMember(), validMember({ firstName: 'Ada', email: 'GRACE@example.com' })])).toBe(
      'Team member #2 has the same email as team member #1',
    );
  });

  it('weights that do not total 10', () => {
    expect(refusal(withCriterion({ weightText: '4.4' }))).toBe('Total criteria weight must equal 10.');
    expect(refusal(withCriterion({ weightText: '4,6' }))).toBe('Total criteria weight must equal 10.');
  });

  it('two criteria with the same id', () => {
    expect(refusal(withCriterion({ id: 'greeting' }))).toBe('Criterion #1 in criteria group #2 has the same id as another criterion');
  });

  it('a team id that is not an id', () => {
    expect(refusal({ ...validTeam(), id: '../other' })).toBe(TEAM_MESSAGES.teamId);
  });

  it('names the field in the details', () => {
    try {
      checkTeam(withCriterion({ weightText: 'x' }), [], context);
    } catch (error) {
      expect((error as DomainError).details).toMatchObject({ field: 'team.criteria_group[2].criteria[1].weight' });
    }
  });
});

describe('a team’s review threshold', () => {
  it('accepts 50% to 95%, the ends included', () => {
    for (const reviewThreshold of [0.5, 0.55, 0.7, 0.85, 0.95]) {
      expect(checkTeam({ ...validTeam(), reviewThreshold }, [], context).team.reviewThreshold).toBe(reviewThreshold);
    }
  });

  it.each([0.49, 0.96, 0, 1, -0.7, 70, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s with a sentence naming the range', (reviewThreshold) => {
    expect(refusal({ ...validTeam(), reviewThreshold })).toBe('Review threshold must be between 50% and 95%');
  });

  it('names the field in the details', () => {
    expect(() => checkTeam({ ...validTeam(), reviewThreshold: 0.3 }, [], context)).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'team.review_threshold' }) }),
    );
  });

  it('is left undefined when the draft has none, whatever else the team says', () => {
    expect(checkTeam(validTeam(), [], context).team.reviewThreshold).toBeUndefined();
    expect(checkTeam({ ...validTeam(), reviewThreshold: undefined }, [], context).team.reviewThreshold).toBeUndefined();
  });

  it('gives a new team the default of 0.7 when none was chosen', () => {
    expect(REVIEW_THRESHOLD.default).toBe(0.7);
    expect(reviewThresholdAfterSave(undefined, undefined)).toBe(0.7);
    expect(reviewThresholdAfterSave(0.85, undefined)).toBe(0.85);
  });

  it('keeps an existing team’s threshold on an update that sends none, and replaces it on one that does', () => {
    expect(reviewThresholdAfterSave(undefined, 0.9)).toBe(0.9);
    expect(reviewThresholdAfterSave(0.6, 0.9)).toBe(0.6);
  });
});

describe('parseTarget', () => {
  it('reads empty as 0 and whole numbers as themselves', () => {
    expect(parseTarget('')).toBe(0);
    expect(parseTarget(' 12 ')).toBe(12);
    expect(parseTarget('0')).toBe(0);
    expect(parseTarget('1.5')).toBeUndefined();
  });
});
