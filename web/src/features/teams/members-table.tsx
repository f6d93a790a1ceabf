import { useState, type Dispatch } from 'react';
import { teamEditorEvents as events, type TeamEditorAction } from './team-editor-state';
import { parseTargetText, type TeamMemberRecord } from './team-rules';

type MembersTableProps = {
  members: readonly TeamMemberRecord[];
  memberKeys: readonly string[];
  dispatch: Dispatch<TeamEditorAction>;
};

const TEXT_COLUMNS = [
  { field: 'first_name', label: 'First name' },
  { field: 'last_name', label: 'Last name' },
] as const;

/** The Team Members tab: one row per member with first_name, last_name, email, crm_id and target. */
export function MembersTable({ members, memberKeys, dispatch }: MembersTableProps) {
  return (
    <section className="teams-section" aria-label="Team Members">
      <h2 className="teams-section__title">Team Members</h2>
      {members.length === 0 ? (
        <p className="teams-muted">No team members yet. Members are optional.</p>
      ) : (
        <div className="teams-table-scroll">
          <table className="table teams-members-table">
            <thead>
              <tr>
                <th scope="col">First name</th>
                <th scope="col">Last name</th>
                <th scope="col">Email</th>
                <th scope="col">CRM ID</th>
                <th scope="col">Daily target</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((member, index) => {
                const row = `member ${index + 1}`;
                return (
                  <tr key={memberKeys[index] ?? index}>
                    {TEXT_COLUMNS.map(({ field, label }) => (
                      <td key={field} data-label={label}>
                        <input
                          className="field__input"
                          aria-label={`${label}, ${row}`}
                          value={member[field]}
                          onChange={(event) => dispatch(events.memberEdited({ index, field, value: event.target.value }))}
                        />
                      </td>
                    ))}
                    <td data-label="Email">
                      <input
                        className="field__input"
                        type="email"
                        aria-label={`Email, ${row}`}
                        value={member.email}
                        onChange={(event) => dispatch(events.memberEmailEdited({ index, email: event.target.value }))}
                      />
                    </td>
                    <td data-label="CRM ID">
                      <input
                        className="field__input"
                        aria-label={`CRM ID, ${row}`}
                        value={member.crm_id}
                        onChange={(event) => dispatch(events.memberEdited({ index, field: 'crm_id', value: event.target.value }))}
                      />
                    </td>
                    <td data-label="Daily target">
                      <TargetInput
                        label={`Daily target, ${row}`}
                        target={member.target}
                        onTarget={(target) => dispatch(events.memberTargetSet({ index, target }))}
                      />
                    </td>
                    <td>
                      <button type="button" className="button button--small" aria-label={`Remove ${row}`} onClick={() => dispatch(events.memberRemoved(index))}>
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <button type="button" className="button" onClick={() => dispatch(events.memberAdded())}>
        Add Member
      </button>
    </section>
  );
}

/**
 * A daily target as typed: a whole number of 0 or more, empty meaning 0. Text that is not one
 * stays in the field with a hint and is dropped on leaving it; the member keeps the last valid target.
 */
function TargetInput({ label, target, onTarget }: { label: string; target: number; onTarget: (target: number) => void }) {
  const [text, setText] = useState<string | null>(null);
  const invalid = text !== null && parseTargetText(text) === undefined;
  return (
    <>
      <input
        className="field__input teams-target-input"
        inputMode="numeric"
        aria-label={label}
        aria-invalid={invalid || undefined}
        value={text ?? String(target)}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = parseTargetText(event.target.value);
          if (parsed !== undefined) onTarget(parsed);
        }}
        onBlur={() => setText(null)}
      />
      {invalid ? <span className="field__error">Enter a whole number (0 or more)</span> : null}
    </>
  );
}
