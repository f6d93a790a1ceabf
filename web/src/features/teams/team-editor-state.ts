/**
 * The team editor's local state (spec part 1 §4): the team and its members as edited, plus what
 * only the screen needs: weights being typed, their errors, AI suggestions waiting for Approve or
 * Decline and suggestions being generated. It is a plain reducer for the page's useReducer; no
 * other screen reads it, so it stays out of the store.
 *
 * Per-criterion UI state is keyed by criterion id, so removing a criterion or a group can drop
 * exactly its pending weight, error, suggestion and generating state.
 */
import { createSlice, current, type PayloadAction } from '@reduxjs/toolkit';
import { emptyMember, newTeam } from './team-payload';
import {
  commitWeight,
  membersWithEmailEdited,
  newUniqueId,
  syncMemberEmails,
  type EditorCriterion,
  type EditorTeam,
  type TeamMemberRecord,
} from './team-rules';

export type TeamEditorState = {
  team: EditorTeam;
  members: TeamMemberRecord[];
  /** A stable React key per member row (members have no id of their own). */
  memberKeys: string[];
  /** Weight text as typed, until it is committed (blur, Enter or Tab). */
  weightDrafts: Record<string, string>;
  weightErrors: Record<string, string>;
  /** Criteria showing an AI suggestion, with the prompt Decline brings back. */
  suggestions: Record<string, { original: string }>;
  generating: Record<string, true>;
};

export function teamEditorStateOf(team: EditorTeam, members: readonly TeamMemberRecord[]): TeamEditorState {
  return {
    team,
    members: [...members],
    memberKeys: members.map(() => newUniqueId()),
    weightDrafts: {},
    weightErrors: {},
    suggestions: {},
    generating: {},
  };
}

/**
 * The team as it will be once every weight still being typed is committed, and whether any of
 * them cannot be. Save looks at this: a weight typed and not yet blurred counts, because clicking
 * a disabled Save would not blur the field to commit it.
 */
export function teamWithDraftsCommitted(state: TeamEditorState): { team: EditorTeam; refused: boolean } {
  let team = state.team;
  let refused = false;
  for (const [criterionId, text] of Object.entries(state.weightDrafts)) {
    const at = locateCriterion(team, criterionId);
    if (!at) continue;
    const result = commitWeight(team, at.groupIndex, at.criterionIndex, text);
    if (result.error !== undefined) refused = true;
    else team = result.team;
  }
  return { team, refused };
}

export const emptyCriterion = (): EditorCriterion => ({ id: newUniqueId(), name: '', prompt: '', weight: 0 });

/** Where a criterion sits in the team, by id. */
export function locateCriterion(team: EditorTeam, criterionId: string): { groupIndex: number; criterionIndex: number } | undefined {
  for (const [groupIndex, group] of team.criteria_group.entries()) {
    const criterionIndex = group.criteria.findIndex((criterion) => criterion.id === criterionId);
    if (criterionIndex >= 0) return { groupIndex, criterionIndex };
  }
  return undefined;
}

export function findCriterion(team: EditorTeam, criterionId: string): EditorCriterion | undefined {
  const at = locateCriterion(team, criterionId);
  return at ? team.criteria_group[at.groupIndex]?.criteria[at.criterionIndex] : undefined;
}

type MemberTextField = 'first_name' | 'last_name' | 'crm_id';

function forgetCriterion(state: TeamEditorState, criterionId: string) {
  delete state.weightDrafts[criterionId];
  delete state.weightErrors[criterionId];
  delete state.suggestions[criterionId];
  delete state.generating[criterionId];
}

function withCriterion(state: TeamEditorState, criterionId: string, change: (criterion: EditorCriterion) => void) {
  const at = locateCriterion(state.team, criterionId);
  const criterion = at && state.team.criteria_group[at.groupIndex]?.criteria[at.criterionIndex];
  if (criterion) change(criterion);
}

export const teamEditorSlice = createSlice({
  name: 'teamEditor',
  initialState: () => teamEditorStateOf(newTeam(''), []),
  reducers: {
    teamRenamed(state, action: PayloadAction<string>) {
      state.team.name = action.payload;
    },
    memberAdded(state) {
      state.members.push(emptyMember());
      state.memberKeys.push(newUniqueId());
    },
    memberRemoved(state, action: PayloadAction<number>) {
      state.members.splice(action.payload, 1);
      state.memberKeys.splice(action.payload, 1);
      state.team.members = syncMemberEmails(state.members);
    },
    memberEdited(state, action: PayloadAction<{ index: number; field: MemberTextField; value: string }>) {
      const member = state.members[action.payload.index];
      if (member) member[action.payload.field] = action.payload.value;
    },
    memberEmailEdited(state, action: PayloadAction<{ index: number; email: string }>) {
      const edited = membersWithEmailEdited(current(state.team), current(state.members), action.payload.index, action.payload.email);
      state.team = edited.team;
      state.members = edited.members;
    },
    memberTargetSet(state, action: PayloadAction<{ index: number; target: number }>) {
      const member = state.members[action.payload.index];
      if (member) member.target = action.payload.target;
    },
    groupAdded(state) {
      state.team.criteria_group.push({ id: newUniqueId(), name: '', criteria: [emptyCriterion()] });
    },
    groupRemoved(state, action: PayloadAction<string>) {
      const group = state.team.criteria_group.find((candidate) => candidate.id === action.payload);
      if (!group) return;
      for (const criterion of group.criteria) forgetCriterion(state, criterion.id);
      state.team.criteria_group = state.team.criteria_group.filter((candidate) => candidate.id !== action.payload);
    },
    groupRenamed(state, action: PayloadAction<{ groupId: string; name: string }>) {
      const group = state.team.criteria_group.find((candidate) => candidate.id === action.payload.groupId);
      if (group) group.name = action.payload.name;
    },
    criterionAdded(state, action: PayloadAction<string>) {
      state.team.criteria_group.find((group) => group.id === action.payload)?.criteria.push(emptyCriterion());
    },
    criterionRemoved(state, action: PayloadAction<string>) {
      const at = locateCriterion(state.team, action.payload);
      if (!at) return;
      state.team.criteria_group[at.groupIndex]?.criteria.splice(at.criterionIndex, 1);
      forgetCriterion(state, action.payload);
    },
    criterionRenamed(state, action: PayloadAction<{ criterionId: string; name: string }>) {
      withCriterion(state, action.payload.criterionId, (criterion) => {
        criterion.name = action.payload.name;
      });
    },
    criterionPromptEdited(state, action: PayloadAction<{ criterionId: string; prompt: string }>) {
      withCriterion(state, action.payload.criterionId, (criterion) => {
        criterion.prompt = action.payload.prompt;
      });
    },
    weightTyped(state, action: PayloadAction<{ criterionId: string; text: string }>) {
      state.weightDrafts[action.payload.criterionId] = action.payload.text;
    },
    /** Blur, Enter or Tab: the typed text becomes the weight, or its error is shown. */
    weightCommitted(state, action: PayloadAction<string>) {
      const criterionId = action.payload;
      const text = state.weightDrafts[criterionId];
      const at = locateCriterion(state.team, criterionId);
      if (text === undefined || !at) return;
      const result = commitWeight(current(state.team), at.groupIndex, at.criterionIndex, text);
      if (result.error !== undefined) {
        state.weightErrors[criterionId] = result.error;
        return;
      }
      state.team = result.team;
      delete state.weightDrafts[criterionId];
      delete state.weightErrors[criterionId];
    },
    /** Save commits every weight still being typed, as a blur would. */
    allWeightsCommitted(state) {
      for (const criterionId of Object.keys(state.weightDrafts)) teamEditorSlice.caseReducers.weightCommitted(state, { type: 'weightCommitted', payload: criterionId });
    },
    suggestionRequested(state, action: PayloadAction<string>) {
      if (findCriterion(state.team, action.payload)) state.generating[action.payload] = true;
    },
    suggestionReceived(state, action: PayloadAction<{ criterionId: string; suggestion: string }>) {
      const { criterionId, suggestion } = action.payload;
      delete state.generating[criterionId];
      withCriterion(state, criterionId, (criterion) => {
        // A second suggestion keeps the first original, so Decline returns to what the user wrote.
        state.suggestions[criterionId] ??= { original: criterion.prompt };
        criterion.prompt = suggestion;
      });
    },
    suggestionFailed(state, action: PayloadAction<string>) {
      delete state.generating[action.payload];
    },
    suggestionApproved(state, action: PayloadAction<string>) {
      delete state.suggestions[action.payload];
    },
    suggestionDeclined(state, action: PayloadAction<string>) {
      const suggestion = state.suggestions[action.payload];
      if (!suggestion) return;
      withCriterion(state, action.payload, (criterion) => {
        criterion.prompt = suggestion.original;
      });
      delete state.suggestions[action.payload];
    },
    successPromptEdited(state, action: PayloadAction<string>) {
      state.team.success_criteria.prompt = action.payload;
    },
    callScriptEdited(state, action: PayloadAction<string>) {
      state.team.call_script = action.payload;
    },
    reviewThresholdChosen(state, action: PayloadAction<number>) {
      state.team.review_threshold = action.payload;
    },
  },
});

export const teamEditorEvents = teamEditorSlice.actions;
export type TeamEditorAction = ReturnType<(typeof teamEditorEvents)[keyof typeof teamEditorEvents]>;
