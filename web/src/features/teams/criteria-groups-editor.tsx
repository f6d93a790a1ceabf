import { useId, type Dispatch } from 'react';
import { Spinner } from '../../components/spinner';
import { teamEditorEvents as events, type TeamEditorAction, type TeamEditorState } from './team-editor-state';
import {
  CRITERION_NAME_MAX,
  CRITERION_PROMPT_MAX,
  REVIEW_THRESHOLD_HINT,
  REVIEW_THRESHOLD_LABEL,
  SUCCESS_PROMPT_MAX,
  counterLevel,
  isFieldMissing,
  requiredFieldProblems,
  reviewThresholdChoices,
  reviewThresholdPercent,
  type CounterKind,
  type EditorCriterion,
  type RequiredFieldProblems,
} from './team-rules';

export const SUGGESTION_BADGE = 'AI Suggestion - Approve or Decline';

type CriteriaGroupsEditorProps = {
  state: TeamEditorState;
  dispatch: Dispatch<TeamEditorAction>;
  onSuggest: (criterionId: string) => void;
};

/** The Evaluation Criteria tab: groups of criteria with weights and prompts, and the success prompt. */
export function CriteriaGroupsEditor({ state, dispatch, onSuggest }: CriteriaGroupsEditorProps) {
  const { team } = state;
  const problems = requiredFieldProblems(team);
  const successId = useId();
  const reviewId = useId();
  return (
    <section className="teams-section" aria-label="Evaluation Criteria">
      <h2 className="teams-section__title">Evaluation Criteria</h2>
      {problems.banner ? (
        <p className="alert alert--warning teams-required-banner" role="status">
          {problems.banner}
        </p>
      ) : null}

      {team.criteria_group.length === 0 ? (
        <div className="teams-empty-groups card">
          <p className="teams-muted">No criteria groups yet.</p>
          <button type="button" className="button button--primary" onClick={() => dispatch(events.groupAdded())}>
            Add Your First Group
          </button>
        </div>
      ) : (
        <>
          {team.criteria_group.map((group, groupIndex) => {
            const where = `group ${groupIndex + 1}`;
            const nameMissing = isFieldMissing(problems, 'groupName', groupIndex);
            return (
              <fieldset key={group.id} className="teams-group card">
                <legend className="visually-hidden">{`Criteria group ${groupIndex + 1}`}</legend>
                <div className="teams-group__header">
                  <div className="field teams-group__name">
                    <div className="teams-label-row">
                      <label className="field__label" htmlFor={`${group.id}-name`}>
                        Group name<span className="visually-hidden">{` (${where})`}</span>
                      </label>
                      {nameMissing ? <RequiredMarker /> : null}
                    </div>
                    <input
                      id={`${group.id}-name`}
                      className={`field__input${nameMissing ? ' teams-input--required' : ''}`}
                      value={group.name}
                      onChange={(event) => dispatch(events.groupRenamed({ groupId: group.id, name: event.target.value }))}
                    />
                  </div>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Remove Group ${groupIndex + 1}`}
                    onClick={() => dispatch(events.groupRemoved(group.id))}
                  >
                    Remove Group
                  </button>
                </div>

                {group.criteria.map((criterion, criterionIndex) => (
                  <CriterionEditor
                    key={criterion.id}
                    criterion={criterion}
                    where={`${where}, criterion ${criterionIndex + 1}`}
                    groupIndex={groupIndex}
                    criterionIndex={criterionIndex}
                    problems={problems}
                    state={state}
                    dispatch={dispatch}
                    onSuggest={onSuggest}
                  />
                ))}

                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Add Criterion to ${where}`}
                  onClick={() => dispatch(events.criterionAdded(group.id))}
                >
                  Add Criterion
                </button>
              </fieldset>
            );
          })}
          <button type="button" className="button" onClick={() => dispatch(events.groupAdded())}>
            Add Group
          </button>
        </>
      )}

      <div className="teams-success card">
        <div className="field">
          <label className="field__label" htmlFor={successId}>
            Determine the success of the activity
          </label>
          <textarea
            id={successId}
            className="field__input teams-textarea"
            rows={3}
            value={team.success_criteria.prompt}
            onChange={(event) => dispatch(events.successPromptEdited(event.target.value))}
          />
          <Counter length={team.success_criteria.prompt.length} max={SUCCESS_PROMPT_MAX} kind="successPrompt" />
        </div>
        <div className="field teams-review-threshold">
          <label className="field__label" htmlFor={reviewId}>
            {REVIEW_THRESHOLD_LABEL}
          </label>
          <select
            id={reviewId}
            className="field__input"
            value={String(team.review_threshold)}
            aria-describedby={`${reviewId}-hint`}
            onChange={(event) => dispatch(events.reviewThresholdChosen(Number(event.target.value)))}
          >
            {reviewThresholdChoices(team.review_threshold).map((threshold) => (
              <option key={threshold} value={String(threshold)}>
                {reviewThresholdPercent(threshold)}
              </option>
            ))}
          </select>
          <span id={`${reviewId}-hint`} className="field__hint">
            {REVIEW_THRESHOLD_HINT}
          </span>
        </div>
      </div>
    </section>
  );
}

type CriterionEditorProps = {
  criterion: EditorCriterion;
  where: string;
  groupIndex: number;
  criterionIndex: number;
  problems: RequiredFieldProblems;
  state: TeamEditorState;
  dispatch: Dispatch<TeamEditorAction>;
  onSuggest: (criterionId: string) => void;
};

function CriterionEditor({ criterion, where, groupIndex, criterionIndex, problems, state, dispatch, onSuggest }: CriterionEditorProps) {
  const id = criterion.id;
  const nameMissing = isFieldMissing(problems, 'criterionName', groupIndex, criterionIndex);
  const promptMissing = isFieldMissing(problems, 'criterionPrompt', groupIndex, criterionIndex);
  const draft = state.weightDrafts[id];
  const weightError = state.weightErrors[id];
  const generating = state.generating[id] === true;
  const suggested = state.suggestions[id] !== undefined;
  const hint = (text: string) => <span className="visually-hidden">{` (${text})`}</span>;

  return (
    <div className="teams-criterion">
      <div className="teams-criterion__row">
        <div className="field teams-criterion__name">
          <div className="teams-label-row">
            <label className="field__label" htmlFor={`${id}-name`}>
              Criterion name{hint(where)}
            </label>
            {nameMissing ? <RequiredMarker /> : null}
          </div>
          <input
            id={`${id}-name`}
            className={`field__input${nameMissing ? ' teams-input--required' : ''}`}
            value={criterion.name}
            onChange={(event) => dispatch(events.criterionRenamed({ criterionId: id, name: event.target.value }))}
          />
          <Counter length={criterion.name.length} max={CRITERION_NAME_MAX} kind="criterionName" />
        </div>
        <div className="field teams-criterion__weight">
          <label className="field__label" htmlFor={`${id}-weight`}>
            Weight{hint(where)}
          </label>
          <input
            id={`${id}-weight`}
            className="field__input"
            inputMode="decimal"
            autoComplete="off"
            value={draft ?? String(criterion.weight)}
            aria-invalid={weightError !== undefined || undefined}
            aria-describedby={weightError !== undefined ? `${id}-weight-error` : undefined}
            onChange={(event) => dispatch(events.weightTyped({ criterionId: id, text: event.target.value }))}
            onBlur={() => dispatch(events.weightCommitted(id))}
            onKeyDown={(event) => {
              // Tab commits too (blur follows, and finds nothing left to commit).
              if (event.key === 'Enter' || event.key === 'Tab') dispatch(events.weightCommitted(id));
            }}
          />
          {weightError !== undefined ? (
            <span id={`${id}-weight-error`} className="field__error" role="alert">
              {weightError}
            </span>
          ) : null}
        </div>
      </div>

      <div className="field">
        <div className="teams-label-row">
          <label className="field__label" htmlFor={`${id}-prompt`}>
            Description{hint(where)}
          </label>
          {promptMissing ? <RequiredMarker /> : null}
        </div>
        {suggested ? (
          <div className="teams-suggestion">
            <span className="badge badge--info">{SUGGESTION_BADGE}</span>
            <button type="button" className="button button--small button--primary" onClick={() => dispatch(events.suggestionApproved(id))}>
              Approve
            </button>
            <button type="button" className="button button--small" onClick={() => dispatch(events.suggestionDeclined(id))}>
              Decline
            </button>
          </div>
        ) : null}
        <textarea
          id={`${id}-prompt`}
          className={`field__input teams-textarea${promptMissing ? ' teams-input--required' : ''}`}
          rows={3}
          value={criterion.prompt}
          onChange={(event) => dispatch(events.criterionPromptEdited({ criterionId: id, prompt: event.target.value }))}
        />
        <Counter length={criterion.prompt.length} max={CRITERION_PROMPT_MAX} kind="criterionPrompt" />
      </div>

      <div className="button-row">
        <button
          type="button"
          className="button button--small"
          disabled={generating || criterion.name.trim() === ''}
          title={criterion.name.trim() === '' ? 'Enter a criterion name first' : undefined}
          onClick={() => onSuggest(id)}
        >
          {generating ? (
            <>
              <Spinner /> Generating...
            </>
          ) : (
            'AI Suggestion'
          )}
        </button>
        <button type="button" className="button button--small" aria-label={`Remove Criterion (${where})`} onClick={() => dispatch(events.criterionRemoved(id))}>
          Remove Criterion
        </button>
      </div>
    </div>
  );
}

function RequiredMarker() {
  return (
    <span className="badge badge--warning teams-required-marker">Required</span>
  );
}

function Counter({ length, max, kind }: { length: number; max: number; kind: CounterKind }) {
  const level = counterLevel(length, kind);
  return (
    <span className={`teams-counter teams-counter--${level}`} data-level={level}>
      {length}/{max}
    </span>
  );
}
