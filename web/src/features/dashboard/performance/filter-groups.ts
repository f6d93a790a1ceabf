/**
 * The filter groups of the performance screen (spec part 2 §2.10, §3 "Filter group", §4 "Filter
 * groups"), as a reducer the page keeps with useReducer. Every rule of §4 lives here:
 * - the first group starts with all the department's teams and this quarter, or with the filter
 *   the dashboard's 'View Full' link handed over;
 * - a new group copies the first group's period (this quarter when there is none to copy);
 * - changing a group's mode clears its teams and representatives;
 * - removing a team removes its representatives (unless another chosen team has them too);
 * - at least one group remains.
 */
import { createSlice, nanoid, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { Dispatch } from 'react';
import type { DashboardMode, PerformanceRouteState, PeriodPreset } from '../metrics';
import { DEFAULT_PERIOD, parseDay, resolvePeriod, type DayRange } from './period-presets';

/** §3 "Filter group"; fromDate and toDate are the local days (YYYY-MM-DD) the period resolved to. */
export interface FilterGroup {
  id: string;
  name: string;
  selectedMode: DashboardMode;
  selectedTeams: string[];
  /** Representatives' e-mails. */
  selectedMembers: string[];
  dateRangeType: PeriodPreset;
  fromDate: string;
  toDate: string;
}

export interface FilterGroupsState {
  groups: FilterGroup[];
  /** Whether the first group has been given its teams (they arrive after the page opens). */
  seeded: boolean;
}

/** A team as far as the rules need it: its id and its members' e-mails. */
export type TeamMembership = { id: string; members: readonly string[] };

export type InitialFilter = PerformanceRouteState['initialFilter'];

/** §2.10: what the page says when the last group would be deleted. */
export const LAST_GROUP_ALERT = 'You need at least one filter group';

/** The day `today` (YYYY-MM-DD) as a date to resolve presets against; now when unreadable. */
const dateOf = (today: string) => parseDay(today) ?? new Date();

const periodOf = (preset: PeriodPreset, today: string, custom?: DayRange) => ({ dateRangeType: preset, ...resolvePeriod(preset, dateOf(today), custom) });

function newGroup(id: string, name: string, period: Pick<FilterGroup, 'dateRangeType' | 'fromDate' | 'toDate'>): FilterGroup {
  return { id, name, selectedMode: 'team', selectedTeams: [], selectedMembers: [], ...period };
}

/** 'Group n' with the smallest n from the group count up that no group is called yet. */
function nextGroupName(groups: readonly FilterGroup[]): string {
  const names = new Set(groups.map((group) => group.name.trim()));
  let number = groups.length + 1;
  while (names.has(`Group ${number}`)) number += 1;
  return `Group ${number}`;
}

const lower = (email: string) => email.toLowerCase();

/** The e-mails of the members of the given teams, lower-cased. */
function membersOf(teamIds: readonly string[], teams: readonly TeamMembership[]): Set<string> {
  const chosen = new Set(teamIds);
  return new Set(teams.filter((team) => chosen.has(team.id)).flatMap((team) => team.members.map(lower)));
}

/** One group before any team is known: team mode, this quarter. */
export function initialFilterGroups(today: string): FilterGroupsState {
  return { groups: [newGroup(nanoid(), 'Group 1', periodOf(DEFAULT_PERIOD, today))], seeded: false };
}

export const filterGroupsSlice = createSlice({
  name: 'filterGroups',
  initialState: () => initialFilterGroups(''),
  reducers: {
    /**
     * The department's teams have arrived: the first group takes all of them (§4), or what the
     * dashboard handed over, kept to this department's teams. With no team handed over it takes
     * the teams of the representatives handed over, else all teams. Happens once.
     */
    baseFilterSeeded(state, action: PayloadAction<{ teams: TeamMembership[]; initialFilter?: InitialFilter; today: string }>) {
      const { teams, initialFilter, today } = action.payload;
      const first = state.groups[0];
      if (state.seeded || !first) return;
      state.seeded = true;
      const departmentTeams = teams.map((team) => team.id);
      if (!initialFilter) {
        first.selectedTeams = departmentTeams;
        return;
      }
      const representatives = [...new Set(initialFilter.representatives.map(lower))];
      let selectedTeams = initialFilter.teamIds.filter((id) => departmentTeams.includes(id));
      if (selectedTeams.length === 0 && representatives.length > 0) {
        selectedTeams = teams.filter((team) => team.members.some((email) => representatives.includes(lower(email)))).map((team) => team.id);
      }
      if (selectedTeams.length === 0) selectedTeams = departmentTeams;
      const members = membersOf(selectedTeams, teams);
      first.selectedMode = initialFilter.mode === 'representative' ? 'representative' : 'team';
      first.selectedTeams = selectedTeams;
      first.selectedMembers = representatives.filter((email) => members.has(email));
      Object.assign(first, periodOf(initialFilter.dateRangeType, today, { fromDate: initialFilter.fromDate ?? '', toDate: initialFilter.toDate ?? '' }));
    },

    /** §4: a new group copies the first group's period, this quarter when there is none. */
    groupAdded: {
      reducer(state, action: PayloadAction<{ id: string; today: string }>) {
        const { id, today } = action.payload;
        const first = state.groups[0];
        const period = first ? { dateRangeType: first.dateRangeType, fromDate: first.fromDate, toDate: first.toDate } : periodOf(DEFAULT_PERIOD, today);
        state.groups.push(newGroup(id, nextGroupName(state.groups), period));
      },
      prepare: (today: string) => ({ payload: { id: nanoid(), today } }),
    },

    groupRenamed(state, action: PayloadAction<{ id: string; name: string }>) {
      const group = state.groups.find((entry) => entry.id === action.payload.id);
      if (group) group.name = action.payload.name;
    },

    /** The last group stays: the page tells the person why (LAST_GROUP_ALERT). */
    groupRemoved(state, action: PayloadAction<string>) {
      if (state.groups.length <= 1) return;
      state.groups = state.groups.filter((group) => group.id !== action.payload);
    },

    /** §4: a new mode starts from no teams and no representatives. */
    modeChanged(state, action: PayloadAction<{ id: string; mode: DashboardMode }>) {
      const group = state.groups.find((entry) => entry.id === action.payload.id);
      if (!group || group.selectedMode === action.payload.mode) return;
      group.selectedMode = action.payload.mode;
      group.selectedTeams = [];
      group.selectedMembers = [];
    },

    /**
     * The group's teams are now `teamIds` (a tick, Select All or Clear). §4: the representatives
     * of a team taken out leave the selection, unless a team still chosen has them as well.
     */
    teamsChanged(state, action: PayloadAction<{ id: string; teamIds: string[]; teams: TeamMembership[] }>) {
      const { id, teamIds, teams } = action.payload;
      const group = state.groups.find((entry) => entry.id === id);
      if (!group) return;
      group.selectedTeams = [...new Set(teamIds)];
      const members = membersOf(group.selectedTeams, teams);
      group.selectedMembers = group.selectedMembers.filter((email) => members.has(lower(email)));
    },

    membersChanged(state, action: PayloadAction<{ id: string; emails: string[] }>) {
      const group = state.groups.find((entry) => entry.id === action.payload.id);
      if (group) group.selectedMembers = [...new Set(action.payload.emails.map(lower))];
    },

    /** A preset resolves to its days now; Custom keeps the days shown, to be edited from there. */
    periodChanged(state, action: PayloadAction<{ id: string; preset: PeriodPreset; today: string }>) {
      const { id, preset, today } = action.payload;
      const group = state.groups.find((entry) => entry.id === id);
      if (group) Object.assign(group, periodOf(preset, today, { fromDate: group.fromDate, toDate: group.toDate }));
    },

    /** Days typed into From or To make the period custom; '' leaves that end open. */
    customDaysChanged(state, action: PayloadAction<{ id: string; fromDate?: string; toDate?: string }>) {
      const { id, fromDate, toDate } = action.payload;
      const group = state.groups.find((entry) => entry.id === id);
      if (!group) return;
      group.dateRangeType = 'custom';
      if (fromDate !== undefined) group.fromDate = fromDate;
      if (toDate !== undefined) group.toDate = toDate;
    },
  },
});

export const { baseFilterSeeded, groupAdded, groupRenamed, groupRemoved, modeChanged, teamsChanged, membersChanged, periodChanged, customDaysChanged } =
  filterGroupsSlice.actions;

export const filterGroupsReducer = filterGroupsSlice.reducer;

/** What the page's useReducer hands its controls. */
export type FilterGroupsDispatch = Dispatch<UnknownAction>;

/** The name a group is shown and sent under: its own, or 'Group n' while its name is blank. */
export const groupLabel = (group: FilterGroup, index: number): string => group.name.trim() || `Group ${index + 1}`;
