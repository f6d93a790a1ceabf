import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { Spinner } from '../../components/spinner';
import { tabIndexAfterKey } from '../../lib/ui/tab-keys';
import { MAX_TOTAL_WEIGHT, TEAM_NAME_MAX, weightStatus, type ChecklistItem } from './team-rules';

export type EditorTab = 'members' | 'criteria' | 'script';

export const EDITOR_TABS: readonly EditorTab[] = ['members', 'criteria', 'script'];

/** Weights are shown as typed numbers: 7.5, not 7.50 (and never float noise). */
export const formatPoints = (points: number) => String(Math.round(points * 100) / 100);

type TeamStatusPanelProps = {
  name: string;
  onRename: (name: string) => void;
  totalWeight: number;
  targetSum: number;
  memberCount: number;
  criterionCount: number;
  callScriptDone: boolean;
  tab: EditorTab;
  onTabChosen: (tab: EditorTab) => void;
  tabId: (tab: EditorTab) => string;
  panelId: (tab: EditorTab) => string;
  saveDisabled: boolean;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  checklist: readonly ChecklistItem[];
};

const CHECK_MARKS: Record<ChecklistItem['state'], string> = { done: '✓', missing: '✗', optional: '○' };
const CHECK_STATES: Record<ChecklistItem['state'], string> = { done: 'done', missing: 'missing', optional: 'optional' };

/** The editor's left panel (spec part 1 §2): name, weight bar, targets, section tabs, save and the checklist. */
export function TeamStatusPanel(props: TeamStatusPanelProps) {
  const nameId = useId();
  const weightLabelId = useId();
  const status = weightStatus(props.totalWeight);
  const fill = Math.min(Math.max(props.totalWeight / MAX_TOTAL_WEIGHT, 0), 1) * 100;

  // Arrow keys, Home and End move between the tabs of this vertical tab list.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = tabIndexAfterKey(event.key, EDITOR_TABS.indexOf(props.tab), EDITOR_TABS.length, 'vertical');
    if (target === undefined) return;
    event.preventDefault();
    const next = EDITOR_TABS[target] ?? props.tab;
    props.onTabChosen(next);
    document.getElementById(props.tabId(next))?.focus();
  };

  const tabLabel: Record<EditorTab, ReactNode> = {
    members: (
      <>
        Team Members <span className="badge">{props.memberCount}</span>
      </>
    ),
    criteria: (
      <>
        Evaluation Criteria <span className="badge">{props.criterionCount}</span>
      </>
    ),
    script: (
      <>
        Call Script{' '}
        <span className={`teams-tab-mark teams-tab-mark--${props.callScriptDone ? 'done' : 'open'}`} aria-hidden="true">
          {props.callScriptDone ? '✓' : '○'}
        </span>
      </>
    ),
  };

  return (
    <aside className="teams-panel card" aria-label="Team overview">
      <div className="field">
        <label className="field__label" htmlFor={nameId}>
          Team name
        </label>
        <input
          id={nameId}
          className="field__input"
          value={props.name}
          maxLength={TEAM_NAME_MAX}
          onChange={(event) => props.onRename(event.target.value)}
        />
      </div>

      <div className="teams-weight">
        <div className="teams-weight__label">
          <span id={weightLabelId}>Criteria weight</span>
          <span className={`teams-weight__total teams-weight__total--${status}`}>
            {formatPoints(props.totalWeight)}/{MAX_TOTAL_WEIGHT}
          </span>
        </div>
        <div
          className="teams-weight__bar"
          role="progressbar"
          aria-labelledby={weightLabelId}
          aria-valuemin={0}
          aria-valuemax={MAX_TOTAL_WEIGHT}
          aria-valuenow={props.totalWeight}
          aria-valuetext={`${formatPoints(props.totalWeight)} of ${MAX_TOTAL_WEIGHT}`}
        >
          <div className={`teams-weight__fill teams-weight__fill--${status}`} style={{ width: `${fill}%` }} />
        </div>
      </div>

      <p className="teams-panel__targets">
        Daily target (all members): <strong>{props.targetSum}</strong>
      </p>

      <div className="teams-panel__tabs" role="tablist" aria-label="Team sections" aria-orientation="vertical" onKeyDown={onTabKey}>
        {EDITOR_TABS.map((tab) => (
          <button
            key={tab}
            id={props.tabId(tab)}
            type="button"
            role="tab"
            className="teams-panel__tab"
            aria-selected={props.tab === tab}
            aria-label={tab === 'script' ? `Call Script (${props.callScriptDone ? 'done' : 'not done'})` : undefined}
            aria-controls={props.tab === tab ? props.panelId(tab) : undefined}
            tabIndex={props.tab === tab ? 0 : -1}
            onClick={() => props.onTabChosen(tab)}
          >
            {tabLabel[tab]}
          </button>
        ))}
      </div>

      <div className="button-row teams-panel__actions">
        <button type="button" className="button button--primary" disabled={props.saveDisabled || props.saving} onClick={props.onSave}>
          {props.saving ? <Spinner /> : null} Save Team
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>

      <ul className="teams-checklist" aria-label="Status">
        {props.checklist.map((item) => (
          <li key={item.id} className={`teams-checklist__item teams-checklist__item--${item.state}`}>
            <span className="teams-checklist__mark" aria-hidden="true">
              {CHECK_MARKS[item.state]}
            </span>
            {item.label}
            <span className="visually-hidden">{` (${CHECK_STATES[item.state]})`}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
