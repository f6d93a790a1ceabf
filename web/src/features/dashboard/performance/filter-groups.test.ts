import { describe, expect, it } from 'vitest';
import {
  baseFilterSeeded,
  customDaysChanged,
  filterGroupsReducer,
  groupAdded,
  groupLabel,
  groupRemoved,
  groupRenamed,
  initialFilterGroups,
  membersChanged,
  modeChanged,
  periodChanged,
  teamsChanged,
  type FilterGroupsState,
  type TeamMembership,
} from './filter-groups';

// Thursday 14 August 2025.
const today = '2025-08-14';
const teams: TeamMembership[] = [
  { id: 'inbound', members: ['ada@example.com', 'alan@example.com'] },
  { id: 'outbound', members: ['Grace@example.com', 'alan@example.com'] },
  { id: 'renewals', members: ['edsger@example.com'] },
];

const run = (state: FilterGroupsState, ...actions: Parameters<typeof filterGroupsReducer>[1][]) => actions.reduce(filterGroupsReducer, state);
const seeded = (initialFilter?: Parameters<typeof baseFilterSeeded>[0]['initialFilter']) =>
  run(initialFilterGroups(today), baseFilterSeeded({ teams, initialFilter, today }));
const first = (state: FilterGroupsState) => state.groups[0]!;

describe('filter groups', () => {
  it('starts with one team-mode group for this quarter', () => {
    const state = initialFilterGroups(today);
    expect(state.seeded).toBe(false);
    expect(state.groups).toHaveLength(1);
    expect(first(state)).toMatchObject({
      name: 'Group 1',
      selectedMode: 'team',
      selectedTeams: [],
      selectedMembers: [],
      dateRangeType: 'this-quarter',
      fromDate: '2025-07-01',
      toDate: '2025-09-30',
    });
  });

  it('gives the first base filter all the teams of the department, once', () => {
    const state = seeded();
    expect(state.seeded).toBe(true);
    expect(first(state).selectedTeams).toEqual(['inbound', 'outbound', 'renewals']);
    expect(first(state).dateRangeType).toBe('this-quarter');

    const cleared = run(state, teamsChanged({ id: first(state).id, teamIds: [], teams }), baseFilterSeeded({ teams, today }));
    expect(first(cleared).selectedTeams).toEqual([]);
  });

  it('takes the filter handed over by the dashboard, kept to this department', () => {
    const state = seeded({
      mode: 'representative',
      teamIds: ['outbound', 'elsewhere'],
      representatives: ['GRACE@example.com', 'ada@example.com'],
      dateRangeType: 'last-month',
    });
    expect(first(state)).toMatchObject({
      selectedMode: 'representative',
      selectedTeams: ['outbound'],
      // Ada is not in the outbound team.
      selectedMembers: ['grace@example.com'],
      dateRangeType: 'last-month',
      fromDate: '2025-07-01',
      toDate: '2025-07-31',
    });
  });

  it('takes the teams of the representatives handed over when no team is, else all teams', () => {
    const byMember = seeded({ mode: 'representative', teamIds: [], representatives: ['edsger@example.com'], dateRangeType: 'this-week' });
    expect(first(byMember).selectedTeams).toEqual(['renewals']);
    expect(first(byMember).selectedMembers).toEqual(['edsger@example.com']);
    expect(first(byMember)).toMatchObject({ fromDate: '2025-08-11', toDate: '2025-08-17' });

    const none = seeded({ mode: 'team', teamIds: [], representatives: [], dateRangeType: 'this-quarter' });
    expect(first(none).selectedTeams).toEqual(['inbound', 'outbound', 'renewals']);
  });

  it('keeps the custom days handed over, and an open range when there were none', () => {
    const custom = seeded({ mode: 'team', teamIds: ['inbound'], representatives: [], dateRangeType: 'custom', fromDate: '2025-03-01', toDate: '2025-03-31' });
    expect(first(custom)).toMatchObject({ dateRangeType: 'custom', fromDate: '2025-03-01', toDate: '2025-03-31' });

    const open = seeded({ mode: 'team', teamIds: ['inbound'], representatives: [], dateRangeType: 'custom' });
    expect(first(open)).toMatchObject({ dateRangeType: 'custom', fromDate: '', toDate: '' });
  });

  it('adds a group that copies the first group’s period, with a name of its own and no teams', () => {
    let state = seeded();
    state = run(state, periodChanged({ id: first(state).id, preset: 'last-year', today }), groupAdded(today), groupAdded(today));
    expect(state.groups.map((group) => group.name)).toEqual(['Group 1', 'Group 2', 'Group 3']);
    expect(state.groups[1]).toMatchObject({ selectedMode: 'team', selectedTeams: [], selectedMembers: [], dateRangeType: 'last-year', fromDate: '2024-01-01', toDate: '2024-12-31' });
    expect(new Set(state.groups.map((group) => group.id)).size).toBe(3);

    state = run(state, groupRemoved(state.groups[1]!.id), groupAdded(today));
    expect(state.groups.map((group) => group.name)).toEqual(['Group 1', 'Group 3', 'Group 4']);
  });

  it('renames and deletes groups, but never the last one', () => {
    let state = run(seeded(), groupAdded(today));
    const [one, two] = state.groups;
    state = run(state, groupRenamed({ id: two!.id, name: 'Seniors' }));
    expect(state.groups.map((group) => group.name)).toEqual(['Group 1', 'Seniors']);

    state = run(state, groupRemoved(one!.id));
    expect(state.groups.map((group) => group.name)).toEqual(['Seniors']);
    state = run(state, groupRemoved(two!.id));
    expect(state.groups.map((group) => group.name)).toEqual(['Seniors']);
  });

  it('shows a blank name as Group n', () => {
    const state = run(seeded(), groupRenamed({ id: first(seeded()).id, name: '  ' }));
    expect(groupLabel(first(state), 0)).toBe('Group 1');
    expect(groupLabel({ ...first(state), name: ' Team A ' }, 0)).toBe('Team A');
  });

  it('clears teams and representatives when the mode changes, and not when it stays', () => {
    let state = seeded();
    const id = first(state).id;
    state = run(state, membersChanged({ id, emails: ['ada@example.com'] }), modeChanged({ id, mode: 'team' }));
    expect(first(state).selectedMembers).toEqual(['ada@example.com']);

    state = run(state, modeChanged({ id, mode: 'representative' }));
    expect(first(state)).toMatchObject({ selectedMode: 'representative', selectedTeams: [], selectedMembers: [] });
  });

  it('takes out the representatives of a removed team, keeping those another chosen team has', () => {
    let state = seeded();
    const id = first(state).id;
    state = run(state, membersChanged({ id, emails: ['ada@example.com', 'Alan@example.com', 'grace@example.com', 'edsger@example.com'] }));
    expect(first(state).selectedMembers).toEqual(['ada@example.com', 'alan@example.com', 'grace@example.com', 'edsger@example.com']);

    state = run(state, teamsChanged({ id, teamIds: ['outbound', 'renewals'], teams }));
    expect(first(state).selectedMembers).toEqual(['alan@example.com', 'grace@example.com', 'edsger@example.com']);

    state = run(state, teamsChanged({ id, teamIds: ['renewals'], teams }));
    expect(first(state).selectedMembers).toEqual(['edsger@example.com']);

    state = run(state, teamsChanged({ id, teamIds: [], teams }));
    expect(first(state)).toMatchObject({ selectedTeams: [], selectedMembers: [] });
  });

  it('changes only the group it names', () => {
    let state = run(seeded(), groupAdded(today));
    const second = state.groups[1]!;
    state = run(state, teamsChanged({ id: second.id, teamIds: ['inbound'], teams }), periodChanged({ id: second.id, preset: 'today', today }));
    expect(first(state).selectedTeams).toEqual(['inbound', 'outbound', 'renewals']);
    expect(first(state).dateRangeType).toBe('this-quarter');
    expect(state.groups[1]).toMatchObject({ selectedTeams: ['inbound'], dateRangeType: 'today', fromDate: today, toDate: today });
  });

  it('resolves a preset to its days, and turns typed days into a custom period starting from the days shown', () => {
    let state = seeded();
    const id = first(state).id;
    state = run(state, periodChanged({ id, preset: 'same-quarter-last-year', today }));
    expect(first(state)).toMatchObject({ fromDate: '2024-07-01', toDate: '2024-09-30' });

    state = run(state, periodChanged({ id, preset: 'custom', today }));
    expect(first(state)).toMatchObject({ dateRangeType: 'custom', fromDate: '2024-07-01', toDate: '2024-09-30' });

    state = run(state, periodChanged({ id, preset: 'this-month', today }), customDaysChanged({ id, toDate: '2025-08-15' }));
    expect(first(state)).toMatchObject({ dateRangeType: 'custom', fromDate: '2025-08-01', toDate: '2025-08-15' });
  });
});
