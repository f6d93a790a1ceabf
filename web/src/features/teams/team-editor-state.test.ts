import { describe, expect, it } from 'vitest';
import { teamEditorEvents as events, teamEditorSlice, teamEditorStateOf, type TeamEditorAction, type TeamEditorState } from './team-editor-state';
import { editorTeamOf } from './team-payload';
import { ada, makeTeam } from './team-test-fixtures';

const start = () => teamEditorStateOf(editorTeamOf(makeTeam()), [ada]);
const run = (state: TeamEditorState, ...actions: TeamEditorAction[]) => actions.reduce(teamEditorSlice.reducer, state);
const weights = (state: TeamEditorState) => state.team.criteria_group.flatMap((group) => group.criteria.map((criterion) => criterion.weight));

describe('team editor state', () => {
  it('holds a typed weight as text until it is committed', () => {
    const typed = run(start(), events.weightTyped({ criterionId: 'c3', text: '2,5' }));
    expect(weights(typed)).toEqual([3, 2.5, 4.5]);
    expect(typed.weightDrafts).toEqual({ c3: '2,5' });

    const committed = run(typed, events.weightCommitted('c3'));
    expect(weights(committed)).toEqual([3, 2.5, 2.5]);
    expect(committed.weightDrafts).toEqual({});
  });

  it('keeps a refused weight as typed, with its error, until it is corrected', () => {
    const refused = run(start(), events.weightTyped({ criterionId: 'c1', text: '5' }), events.weightCommitted('c1'));
    expect(weights(refused)).toEqual([3, 2.5, 4.5]);
    expect(refused.weightDrafts).toEqual({ c1: '5' });
    expect(refused.weightErrors).toEqual({ c1: 'Maximum 3 points remaining' });

    const fixed = run(refused, events.weightTyped({ criterionId: 'c1', text: '1' }), events.weightCommitted('c1'));
    expect(weights(fixed)).toEqual([1, 2.5, 4.5]);
    expect(fixed.weightErrors).toEqual({});
  });

  it('ignores a commit with nothing typed', () => {
    const state = start();
    expect(run(state, events.weightCommitted('c1'))).toBe(state);
  });

  it("forgets a removed criterion's pending weight, error, suggestion and generating state", () => {
    const busy = run(
      start(),
      events.weightTyped({ criterionId: 'c1', text: 'x' }),
      events.weightCommitted('c1'),
      events.suggestionRequested('c1'),
      events.suggestionReceived({ criterionId: 'c1', suggestion: 'New prompt' }),
      events.suggestionRequested('c1'),
      events.weightTyped({ criterionId: 'c2', text: '1' }),
    );
    expect(busy.weightErrors.c1).toBeDefined();
    expect(busy.suggestions.c1).toBeDefined();
    expect(busy.generating.c1).toBe(true);

    const removed = run(busy, events.criterionRemoved('c1'));
    expect(removed.weightDrafts).toEqual({ c2: '1' });
    expect(removed.weightErrors).toEqual({});
    expect(removed.suggestions).toEqual({});
    expect(removed.generating).toEqual({});
    expect(removed.team.criteria_group[0]?.criteria.map((criterion) => criterion.id)).toEqual(['c2']);

    // A suggestion that arrives after its criterion is gone changes nothing.
    const late = run(removed, events.suggestionReceived({ criterionId: 'c1', suggestion: 'Too late' }));
    expect(late.suggestions).toEqual({});
  });

  it("forgets every criterion's UI state when its group is removed", () => {
    const busy = run(start(), events.weightTyped({ criterionId: 'c1', text: '1' }), events.suggestionRequested('c2'), events.weightTyped({ criterionId: 'c3', text: '1' }));
    const removed = run(busy, events.groupRemoved('g1'));
    expect(removed.team.criteria_group.map((group) => group.id)).toEqual(['g2']);
    expect(removed.weightDrafts).toEqual({ c3: '1' });
    expect(removed.generating).toEqual({});
  });

  it('declines back to the text from before the first suggestion', () => {
    const twice = run(
      start(),
      events.suggestionReceived({ criterionId: 'c1', suggestion: 'First' }),
      events.suggestionReceived({ criterionId: 'c1', suggestion: 'Second' }),
    );
    expect(twice.team.criteria_group[0]?.criteria[0]?.prompt).toBe('Second');
    const declined = run(twice, events.suggestionDeclined('c1'));
    expect(declined.team.criteria_group[0]?.criteria[0]?.prompt).toBe('The representative greets the customer.');
    expect(declined.suggestions).toEqual({});
  });

  it('keeps member e-mails and the team list in step when members come and go', () => {
    const state = run(
      start(),
      events.memberAdded(),
      events.memberEmailEdited({ index: 1, email: ' alan@example.com ' }),
      events.memberTargetSet({ index: 1, target: 4 }),
    );
    expect(state.team.members).toEqual(['ada@example.com', 'alan@example.com']);
    expect(state.memberKeys).toHaveLength(2);
    const removed = run(state, events.memberRemoved(0));
    expect(removed.team.members).toEqual(['alan@example.com']);
    expect(removed.members.map((member) => member.target)).toEqual([4]);
    expect(removed.memberKeys).toEqual([state.memberKeys[1]]);
  });

  it('holds the review threshold chosen, and nothing else changes with it', () => {
    const state = start();
    expect(state.team.review_threshold).toBe(0.7);
    const chosen = run(state, events.reviewThresholdChosen(0.85));
    expect(chosen.team).toEqual({ ...state.team, review_threshold: 0.85 });
  });

  it('starts a new group with one empty criterion', () => {
    const state = run(teamEditorStateOf(editorTeamOf(makeTeam({ criteria_group: [] })), []), events.groupAdded());
    expect(state.team.criteria_group).toHaveLength(1);
    expect(state.team.criteria_group[0]?.criteria).toEqual([{ id: expect.any(String), name: '', prompt: '', weight: 0 }]);
  });
});
