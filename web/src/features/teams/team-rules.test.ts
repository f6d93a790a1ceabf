import { describe, expect, it, vi } from 'vitest';
import {
  CALL_SCRIPT_MAX,
  CRITERION_NAME_MAX,
  CRITERION_PROMPT_MAX,
  MAX_TOTAL_WEIGHT,
  MEMBER_NAME_MAX,
  MEMBER_NAME_MIN,
  READ_WORDS_PER_MINUTE,
  REQUIRED_FIELDS_BANNER,
  REVIEW_THRESHOLD_CHOICES,
  SUCCESS_PROMPT_MAX,
  TEAM_NAME_MAX,
  WEIGHT_NOT_A_NUMBER,
  callScriptStats,
  checkBeforeSave,
  commitWeight,
  counterLevel,
  duplicateOf,
  friendlySaveError,
  hasDuplicateMemberNames,
  isFieldMissing,
  membersWithEmailEdited,
  newUniqueId,
  parseTargetText,
  parseWeightText,
  requiredFieldProblems,
  reviewThresholdChoices,
  reviewThresholdPercent,
  saveDisabled,
  statusChecklist,
  syncMemberEmails,
  targetSum,
  totalWeight,
  weightStatus,
  type EditorCriterion,
  type EditorTeam,
  type TeamMemberRecord,
} from './team-rules';

const criterion = (id: string, weight: number, overrides: Partial<EditorCriterion> = {}): EditorCriterion => ({
  id,
  name: `Criterion ${id}`,
  prompt: `The representative does ${id}.`,
  weight,
  ...overrides,
});

/** A valid team: two groups, weights 3 + 2.5 + 4.5 = 10. */
function makeTeam(overrides: Partial<EditorTeam> = {}): EditorTeam {
  return {
    id: 'team-1',
    name: 'Inbound sales',
    department: 'sales',
    criteria_group: [
      { id: 'g1', name: 'Opening', criteria: [criterion('greeting', 3), criterion('intro', 2.5)] },
      { id: 'g2', name: 'Closing', criteria: [criterion('next-steps', 4.5)] },
    ],
    success_criteria: { prompt: 'The customer agrees to a follow-up meeting.' },
    members: ['ada@example.com', 'alan@example.com'],
    call_script: 'Hello, this is {name} from Parlance.',
    crm_id: 'crm-42',
    review_threshold: 0.7,
    ...overrides,
  };
}

const member = (first_name: string, last_name: string, overrides: Partial<TeamMemberRecord> = {}): TeamMemberRecord => ({
  first_name,
  last_name,
  email: `${first_name}@example.com`.toLowerCase(),
  crm_id: '',
  target: 0,
  ...overrides,
});

const members = [member('Ada', 'Lovelace'), member('Alan', 'Turing')];

const weights = (team: EditorTeam) => team.criteria_group.flatMap((group) => group.criteria.map((c) => c.weight));

describe('spec constants', () => {
  it('uses the limits of spec part 1 §9', () => {
    expect(MAX_TOTAL_WEIGHT).toBe(10);
    expect(TEAM_NAME_MAX).toBe(100);
    expect(CRITERION_NAME_MAX).toBe(100);
    expect(CRITERION_PROMPT_MAX).toBe(500);
    expect(SUCCESS_PROMPT_MAX).toBe(500);
    expect(CALL_SCRIPT_MAX).toBe(10_000);
    expect([MEMBER_NAME_MIN, MEMBER_NAME_MAX]).toEqual([2, 100]);
    expect(READ_WORDS_PER_MINUTE).toBe(150);
  });
});

describe('parseWeightText', () => {
  it('accepts a dot or a comma as the decimal separator', () => {
    expect(parseWeightText('7.5')).toBe(7.5);
    expect(parseWeightText('7,5')).toBe(7.5);
    expect(parseWeightText(' 3 ')).toBe(3);
    expect(parseWeightText(',5')).toBe(0.5);
    expect(parseWeightText('4.')).toBe(4);
  });

  it('rounds to one decimal', () => {
    expect(parseWeightText('3.25')).toBe(3.3);
    expect(parseWeightText('3,14')).toBe(3.1);
    expect(parseWeightText('-0.01')).toBe(0);
    expect(Object.is(parseWeightText('-0.01'), -0)).toBe(false);
  });

  it('returns undefined for text that is not a number', () => {
    for (const text of ['', ' ', 'abc', '1.2.3', '1,2,3', '1e3', '5 points', '.', 'Infinity']) {
      expect(parseWeightText(text), text).toBeUndefined();
    }
  });
});

describe('commitWeight', () => {
  it('commits a weight typed with a comma, rounded to one decimal', () => {
    const team = makeTeam();
    const result = commitWeight(team, 0, 1, '2,54');
    expect(result.error).toBeUndefined();
    expect(weights(result.team!)).toEqual([3, 2.5, 4.5]);
    expect(weights(commitWeight(team, 0, 1, '1,04').team!)).toEqual([3, 1, 4.5]);
  });

  it('leaves the team it was given unchanged', () => {
    const team = makeTeam();
    commitWeight(team, 0, 0, '1');
    expect(weights(team)).toEqual([3, 2.5, 4.5]);
  });

  it('clamps a negative weight to 0', () => {
    expect(weights(commitWeight(makeTeam(), 1, 0, '-3').team!)).toEqual([3, 2.5, 0]);
  });

  it('clamps a weight above 10 to 10 when the other criteria leave room', () => {
    const team = makeTeam({ criteria_group: [{ id: 'g', name: 'All', criteria: [criterion('a', 0), criterion('b', 0)] }] });
    expect(weights(commitWeight(team, 0, 0, '12').team!)).toEqual([10, 0]);
  });

  it('refuses a weight that pushes the total above 10, naming what remains', () => {
    const team = makeTeam({
      criteria_group: [{ id: 'g', name: 'All', criteria: [criterion('a', 4), criterion('b', 3.5), criterion('c', 0)] }],
    });
    expect(commitWeight(team, 0, 2, '3')).toEqual({ error: 'Maximum 2.5 points remaining' });
    expect(weights(commitWeight(team, 0, 2, '2,5').team!)).toEqual([4, 3.5, 2.5]);
  });

  it('names whole remaining points without a decimal', () => {
    expect(commitWeight(makeTeam(), 0, 0, '4')).toEqual({ error: 'Maximum 3 points remaining' });
  });

  it('names 0 points remaining when the other criteria already total 10 or more', () => {
    const team = makeTeam({
      criteria_group: [{ id: 'g', name: 'All', criteria: [criterion('a', 6), criterion('b', 6), criterion('c', 0)] }],
    });
    expect(commitWeight(team, 0, 2, '0.1')).toEqual({ error: 'Maximum 0 points remaining' });
  });

  it('accepts lowering a weight even while the total is still above 10', () => {
    const team = makeTeam({ criteria_group: [{ id: 'g', name: 'All', criteria: [criterion('a', 6), criterion('b', 6)] }] });
    expect(weights(commitWeight(team, 0, 0, '5').team!)).toEqual([5, 6]);
    expect(commitWeight(team, 0, 0, '7')).toEqual({ error: 'Maximum 4 points remaining' });
  });

  it('accepts the same weight again on a team that totals 10', () => {
    expect(weights(commitWeight(makeTeam(), 1, 0, '4.5').team!)).toEqual([3, 2.5, 4.5]);
  });

  it('gives a per-field error for text that is not a number', () => {
    expect(commitWeight(makeTeam(), 0, 0, 'three')).toEqual({ error: WEIGHT_NOT_A_NUMBER });
    expect(commitWeight(makeTeam(), 0, 0, '')).toEqual({ error: 'Enter a number from 0 to 10' });
  });

  it('throws for a criterion that does not exist', () => {
    expect(() => commitWeight(makeTeam(), 5, 0, '1')).toThrow(RangeError);
  });
});

describe('totalWeight and weightStatus', () => {
  it('adds decimal weights exactly (3.3 + 3.3 + 3.4 is 10)', () => {
    const team = makeTeam({
      criteria_group: [{ id: 'g', name: 'All', criteria: [criterion('a', 3.3), criterion('b', 3.3), criterion('c', 3.4)] }],
    });
    expect(totalWeight(team)).toBe(10);
    expect(weightStatus(totalWeight(team))).toBe('balanced');
  });

  it('adds 0.1 ten times to exactly 1', () => {
    const team = makeTeam({
      criteria_group: [{ id: 'g', name: 'All', criteria: Array.from({ length: 10 }, (_, i) => criterion(`c${i}`, 0.1)) }],
    });
    expect(totalWeight(team)).toBe(1);
  });

  it('is 0 for a team without criteria', () => {
    expect(totalWeight(makeTeam({ criteria_group: [] }))).toBe(0);
  });

  it('is balanced (green) at 10, over (red) above and under (amber) below', () => {
    expect(weightStatus(10)).toBe('balanced');
    expect(weightStatus(10.1)).toBe('over');
    expect(weightStatus(9.9)).toBe('under');
    expect(weightStatus(0)).toBe('under');
  });
});

describe('checkBeforeSave', () => {
  it('passes a valid team', () => {
    expect(checkBeforeSave(makeTeam(), members)).toBeUndefined();
  });

  it('requires a team name', () => {
    expect(checkBeforeSave(makeTeam({ name: '   ' }), members)).toBe('Team name is required.');
  });

  it('requires each member first and last name to be 2 to 100 characters', () => {
    expect(checkBeforeSave(makeTeam(), [member('A', 'Lovelace')])).toBe('Each team member name must be between 2 and 100 characters.');
    expect(checkBeforeSave(makeTeam(), [member('Ada', ' L ')])).toBe('Each team member name must be between 2 and 100 characters.');
    expect(checkBeforeSave(makeTeam(), [member('Ada', 'x'.repeat(101))])).toBe(
      'Each team member name must be between 2 and 100 characters.',
    );
    expect(checkBeforeSave(makeTeam(), [member('Al', 'x'.repeat(100))])).toBeUndefined();
  });

  it('requires member names to be unique, ignoring case and surrounding spaces', () => {
    expect(checkBeforeSave(makeTeam(), [member('Ada', 'Lovelace'), member(' ada ', 'LOVELACE', { email: 'other@example.com' })])).toBe(
      'Team member names must be unique.',
    );
    expect(checkBeforeSave(makeTeam(), [member('Ada', 'Lovelace'), member('Ada', 'Byron')])).toBeUndefined();
  });

  it('requires each criteria group to have a name', () => {
    const team = makeTeam();
    team.criteria_group[1]!.name = ' ';
    expect(checkBeforeSave(team, members)).toBe('Each criteria group must have a name and at least one criterion.');
  });

  it('requires each criteria group to have at least one criterion', () => {
    const team = makeTeam();
    team.criteria_group.push({ id: 'g3', name: 'Empty', criteria: [] });
    expect(checkBeforeSave(team, members)).toBe('Each criteria group must have a name and at least one criterion.');
  });

  it('limits criterion descriptions to 500 characters', () => {
    const team = makeTeam();
    team.criteria_group[0]!.criteria[0]!.prompt = 'x'.repeat(501);
    expect(checkBeforeSave(team, members)).toBe('Criterion descriptions must not exceed 500 characters.');
    team.criteria_group[0]!.criteria[0]!.prompt = `${'x'.repeat(500)}  `;
    expect(checkBeforeSave(team, members)).toBeUndefined();
  });

  it('limits criterion names to 100 characters', () => {
    const team = makeTeam();
    team.criteria_group[1]!.criteria[0]!.name = 'x'.repeat(101);
    expect(checkBeforeSave(team, members)).toBe('Criterion names must not exceed 100 characters.');
  });

  it('limits the success criteria prompt to 500 characters', () => {
    const team = makeTeam({ success_criteria: { prompt: 'x'.repeat(501) } });
    expect(checkBeforeSave(team, members)).toBe('Success criteria prompt must not exceed 500 characters.');
  });

  it('requires the total criteria weight to equal 10', () => {
    const team = makeTeam();
    team.criteria_group[1]!.criteria[0]!.weight = 4.4;
    expect(checkBeforeSave(team, members)).toBe('Total criteria weight must equal 10.');
    expect(checkBeforeSave(makeTeam({ criteria_group: [] }), members)).toBe('Total criteria weight must equal 10.');
  });

  it('reports the first problem in the spec order', () => {
    const everythingWrong = makeTeam({
      name: '',
      criteria_group: [{ id: 'g', name: '', criteria: [criterion('a', 1, { name: 'x'.repeat(101), prompt: 'x'.repeat(501) })] }],
      success_criteria: { prompt: 'x'.repeat(501) },
    });
    const badMembers = [member('A', 'B'), member('A', 'B')];
    const alerts: string[] = [];
    const fixes: Array<() => void> = [
      () => (everythingWrong.name = 'Team'),
      () => badMembers.splice(0, 2, member('Ada', 'Bee'), member('Ada', 'Bee')),
      () => badMembers.pop(),
      () => (everythingWrong.criteria_group[0]!.name = 'Group'),
      () => (everythingWrong.criteria_group[0]!.criteria[0]!.prompt = 'Fine'),
      () => (everythingWrong.criteria_group[0]!.criteria[0]!.name = 'Fine'),
      () => (everythingWrong.success_criteria.prompt = 'Fine'),
      () => (everythingWrong.criteria_group[0]!.criteria[0]!.weight = 10),
    ];
    for (const fix of fixes) {
      alerts.push(checkBeforeSave(everythingWrong, badMembers) ?? 'none');
      fix();
    }
    alerts.push(checkBeforeSave(everythingWrong, badMembers) ?? 'none');
    expect(alerts).toEqual([
      'Team name is required.',
      'Each team member name must be between 2 and 100 characters.',
      'Team member names must be unique.',
      'Each criteria group must have a name and at least one criterion.',
      'Criterion descriptions must not exceed 500 characters.',
      'Criterion names must not exceed 100 characters.',
      'Success criteria prompt must not exceed 500 characters.',
      'Total criteria weight must equal 10.',
      'none',
    ]);
  });
});

describe('saveDisabled', () => {
  it('enables saving a team with a name, unique members and weights totalling 10', () => {
    expect(saveDisabled(makeTeam(), members)).toBe(false);
  });

  it('disables saving while the total is not 10', () => {
    const team = makeTeam();
    team.criteria_group[0]!.criteria[0]!.weight = 2;
    expect(saveDisabled(team, members)).toBe(true);
  });

  it('disables saving while the name is blank', () => {
    expect(saveDisabled(makeTeam({ name: ' ' }), members)).toBe(true);
  });

  it('disables saving while member names are duplicated', () => {
    expect(saveDisabled(makeTeam(), [member('Ada', 'Lovelace'), member('ADA', 'lovelace')])).toBe(true);
  });

  it('does not disable saving for problems the alerts report instead', () => {
    expect(saveDisabled(makeTeam({ success_criteria: { prompt: 'x'.repeat(600) } }), [member('A', 'B')])).toBe(false);
  });
});

describe('hasDuplicateMemberNames', () => {
  it('compares first and last name together', () => {
    expect(hasDuplicateMemberNames([member('Ada', 'Lovelace'), member('Lovelace', 'Ada')])).toBe(false);
    expect(hasDuplicateMemberNames([member('Mary  Ann', 'Smith'), member('mary ann', 'smith')])).toBe(true);
    expect(hasDuplicateMemberNames([])).toBe(false);
  });
});

describe('requiredFieldProblems', () => {
  it('reports nothing and no banner for a complete team', () => {
    expect(requiredFieldProblems(makeTeam())).toEqual({ missing: [], banner: undefined });
  });

  it('lists empty group names, criterion names and prompts, with the banner', () => {
    const team = makeTeam();
    team.criteria_group[0]!.name = '';
    team.criteria_group[0]!.criteria[1]!.prompt = '  ';
    team.criteria_group[1]!.criteria[0]!.name = '';
    const problems = requiredFieldProblems(team);
    expect(problems.missing).toEqual([
      { field: 'groupName', groupIndex: 0 },
      { field: 'criterionPrompt', groupIndex: 0, criterionIndex: 1 },
      { field: 'criterionName', groupIndex: 1, criterionIndex: 0 },
    ]);
    expect(problems.banner).toBe('Some fields require attention. Please fill in all required fields (highlighted in orange).');
    expect(problems.banner).toBe(REQUIRED_FIELDS_BANNER);
  });

  it('answers whether one field is missing', () => {
    const team = makeTeam();
    team.criteria_group[0]!.name = '';
    team.criteria_group[1]!.criteria[0]!.name = '';
    const problems = requiredFieldProblems(team);
    expect(isFieldMissing(problems, 'groupName', 0)).toBe(true);
    expect(isFieldMissing(problems, 'groupName', 1)).toBe(false);
    expect(isFieldMissing(problems, 'criterionName', 1, 0)).toBe(true);
    expect(isFieldMissing(problems, 'criterionName', 0, 0)).toBe(false);
    expect(isFieldMissing(problems, 'criterionPrompt', 1, 0)).toBe(false);
  });
});

describe('counterLevel', () => {
  it('warns above 90 characters for a criterion name and is danger above 100', () => {
    expect(counterLevel(90, 'criterionName')).toBe('normal');
    expect(counterLevel(91, 'criterionName')).toBe('warning');
    expect(counterLevel(100, 'criterionName')).toBe('warning');
    expect(counterLevel(101, 'criterionName')).toBe('danger');
  });

  it('warns above 450 characters for a criterion description and is danger above 500', () => {
    expect(counterLevel(450, 'criterionPrompt')).toBe('normal');
    expect(counterLevel(451, 'criterionPrompt')).toBe('warning');
    expect(counterLevel(500, 'criterionPrompt')).toBe('warning');
    expect(counterLevel(501, 'criterionPrompt')).toBe('danger');
  });

  it('warns above 450 characters for the success prompt and is danger above 500', () => {
    expect(counterLevel(0, 'successPrompt')).toBe('normal');
    expect(counterLevel(451, 'successPrompt')).toBe('warning');
    expect(counterLevel(501, 'successPrompt')).toBe('danger');
  });
});

describe('callScriptStats', () => {
  it('counts characters and words', () => {
    expect(callScriptStats('  Hello there,\n\tcustomer!  ')).toEqual({ length: 27, words: 3, readMinutes: 1 });
  });

  it('reads 150 words a minute, rounded up', () => {
    const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
    expect(callScriptStats(words(150)).readMinutes).toBe(1);
    expect(callScriptStats(words(151)).readMinutes).toBe(2);
    expect(callScriptStats(words(300)).readMinutes).toBe(2);
  });

  it('takes 0 minutes to read an empty script', () => {
    expect(callScriptStats('')).toEqual({ length: 0, words: 0, readMinutes: 0 });
    expect(callScriptStats('   \n ')).toEqual({ length: 5, words: 0, readMinutes: 0 });
  });
});

describe('statusChecklist', () => {
  it('ticks every item for a complete team', () => {
    expect(statusChecklist(makeTeam(), members)).toEqual([
      { id: 'name', label: 'Team name provided', state: 'done' },
      { id: 'uniqueMembers', label: 'No duplicate members', state: 'done' },
      { id: 'weight', label: 'Weight balanced', state: 'done' },
      { id: 'members', label: '2 members', state: 'done' },
      { id: 'callScript', label: 'Call script provided', state: 'done' },
    ]);
  });

  it('marks a missing name, duplicate members and unbalanced weights as missing', () => {
    const team = makeTeam({ name: '' });
    team.criteria_group[0]!.criteria[0]!.weight = 0;
    const states = statusChecklist(team, [member('Ada', 'Lovelace'), member('ada', 'lovelace')]).map((item) => [item.id, item.state]);
    expect(states.slice(0, 3)).toEqual([
      ['name', 'missing'],
      ['uniqueMembers', 'missing'],
      ['weight', 'missing'],
    ]);
  });

  it('shows members and the call script as optional when there are none', () => {
    const items = statusChecklist(makeTeam({ call_script: '  ' }), []);
    expect(items.slice(3)).toEqual([
      { id: 'members', label: '0 members', state: 'optional' },
      { id: 'callScript', label: 'Call script (optional)', state: 'optional' },
    ]);
  });

  it('counts one member in the singular', () => {
    expect(statusChecklist(makeTeam(), [member('Ada', 'Lovelace')])[3]!.label).toBe('1 member');
  });
});

describe('member e-mails', () => {
  it('keeps the team members list in step when a member e-mail is edited', () => {
    const team = makeTeam();
    const result = membersWithEmailEdited(team, members, 1, 'alan.turing@example.com');
    expect(result.members[1]!.email).toBe('alan.turing@example.com');
    expect(result.members[0]).toBe(members[0]);
    expect(result.team.members).toEqual(['ada@example.com', 'alan.turing@example.com']);
    expect(team.members).toEqual(['ada@example.com', 'alan@example.com']);
    expect(members[1]!.email).toBe('alan@example.com');
  });

  it('lists trimmed e-mails in member order, leaving out members without one', () => {
    expect(syncMemberEmails([member('Ada', 'L', { email: ' b@x.io ' }), member('Al', 'T', { email: '' }), member('Cy', 'Z', { email: 'a@x.io' })])).toEqual([
      'b@x.io',
      'a@x.io',
    ]);
  });

  it('drops a member from the list while the e-mail is cleared', () => {
    expect(membersWithEmailEdited(makeTeam(), members, 0, '').team.members).toEqual(['alan@example.com']);
  });
});

describe('daily targets', () => {
  it('reads a whole number of at least 0', () => {
    expect(parseTargetText('12')).toBe(12);
    expect(parseTargetText(' 0 ')).toBe(0);
  });

  it('reads empty text as 0', () => {
    expect(parseTargetText('')).toBe(0);
    expect(parseTargetText('  ')).toBe(0);
  });

  it('refuses negative, decimal and non-numeric targets', () => {
    for (const text of ['-1', '1.5', '2,0', 'ten', '1e3', '9'.repeat(20)]) {
      expect(parseTargetText(text), text).toBeUndefined();
    }
  });

  it('sums the members daily targets', () => {
    expect(targetSum([member('Ada', 'L', { target: 5 }), member('Al', 'T', { target: 7 })])).toBe(12);
    expect(targetSum([])).toBe(0);
  });
});

describe('duplicateOf', () => {
  it('copies the team with new ids, " (copy)" and no members, keeping everything else', () => {
    let next = 0;
    const original = { ...makeTeam(), version: 3 };
    const copy = duplicateOf(original, () => `id-${++next}`);
    expect(copy).toEqual({
      ...original,
      id: 'id-1',
      name: 'Inbound sales (copy)',
      members: [],
      criteria_group: [
        { id: 'id-2', name: 'Opening', criteria: [{ ...original.criteria_group[0]!.criteria[0]!, id: 'id-3' }, { ...original.criteria_group[0]!.criteria[1]!, id: 'id-4' }] },
        { id: 'id-5', name: 'Closing', criteria: [{ ...original.criteria_group[1]!.criteria[0]!, id: 'id-6' }] },
      ],
    });
  });

  it('leaves the original untouched', () => {
    const original = makeTeam();
    const copy = duplicateOf(original);
    copy.criteria_group[0]!.criteria[0]!.weight = 9;
    expect(original.id).toBe('team-1');
    expect(original.criteria_group[0]!.id).toBe('g1');
    expect(original.criteria_group[0]!.criteria[0]!.weight).toBe(3);
    expect(original.members).toHaveLength(2);
  });

  it('gives every copy, group and criterion a unique id by default', () => {
    const copy = duplicateOf(makeTeam());
    const ids = [copy.id, ...copy.criteria_group.flatMap((group) => [group.id, ...group.criteria.map((c) => c.id)])];
    expect(new Set(ids).size).toBe(6);
    expect(ids).not.toContain('team-1');
  });
});

describe('review threshold', () => {
  it('offers 50% to 95% in steps of 5', () => {
    expect(REVIEW_THRESHOLD_CHOICES.map(reviewThresholdPercent)).toEqual(['50%', '55%', '60%', '65%', '70%', '75%', '80%', '85%', '90%', '95%']);
    expect(REVIEW_THRESHOLD_CHOICES).toContain(0.7);
    expect(REVIEW_THRESHOLD_CHOICES).toContain(0.55);
  });

  it("adds the team's own threshold when it is not one of the steps, in order", () => {
    expect(reviewThresholdChoices(0.85)).toEqual(REVIEW_THRESHOLD_CHOICES);
    const choices = reviewThresholdChoices(0.72);
    expect(choices).toHaveLength(11);
    expect(choices.slice(4, 7)).toEqual([0.7, 0.72, 0.75]);
    expect(reviewThresholdPercent(0.72)).toBe('72%');
  });

  it('is kept by a duplicate', () => {
    expect(duplicateOf(makeTeam({ review_threshold: 0.9 })).review_threshold).toBe(0.9);
  });
});

describe('newUniqueId', () => {
  const serverIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

  it('uses the platform UUID generator', () => {
    vi.stubGlobal('crypto', { randomUUID: () => '0b6a4a5e-4d7e-4c59-9a57-7c0f1c2b3d4e' });
    expect(newUniqueId()).toBe('0b6a4a5e-4d7e-4c59-9a57-7c0f1c2b3d4e');
  });

  it('falls back to random ids the server accepts when the generator is missing', () => {
    vi.stubGlobal('crypto', {});
    const ids = Array.from({ length: 50 }, () => newUniqueId());
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(serverIdPattern);
  });
});

describe('friendlySaveError', () => {
  it('asks to try again when the server said nothing', () => {
    expect(friendlySaveError()).toBe('Error saving team. Please try again.');
    expect(friendlySaveError('  ')).toBe('Error saving team. Please try again.');
  });

  it('passes the server sentences of the spec through unchanged', () => {
    for (const message of [
      'Please enter a name for criterion #1 in criteria group #2',
      'Please enter a valid weight (0-10) for criterion #3 in criteria group #1',
      'Weight for criterion #1 in criteria group #2 must not exceed 10',
      'Please enter a valid email for team member #2',
      'Team name is too short',
      'Total criteria weight must equal 10.',
      'Team member names must be unique.',
    ]) {
      expect(friendlySaveError(message)).toBe(`Error saving team. ${message}`);
    }
  });

  it('tidies "is required" validation texts', () => {
    expect(friendlySaveError('Invalid body: call_script is required')).toBe('Error saving team. Please enter call script');
    expect(friendlySaveError('"team.name" is required')).toBe('Error saving team. Please enter name');
    expect(friendlySaveError('team.criteria_group.0.criteria.1.prompt is required')).toBe(
      'Error saving team. Please enter criteria group #1 criteria #2 prompt',
    );
  });

  it('tidies "must be a valid" validation texts', () => {
    expect(friendlySaveError('"members.0.email" must be a valid email')).toBe('Error saving team. Please enter a valid email for members #1 email');
    expect(friendlySaveError('Invalid body: members.2.email must match format "email"')).toBe(
      'Error saving team. Please enter a valid email for members #3 email',
    );
  });

  it('drops the validation prefix from other validation texts and names the field in words', () => {
    expect(friendlySaveError('Invalid body: team.name must NOT have more than 100 characters')).toBe(
      'Error saving team. Name must NOT have more than 100 characters',
    );
    expect(friendlySaveError('Invalid body: must be object')).toBe('Error saving team. Must be object');
  });
});
