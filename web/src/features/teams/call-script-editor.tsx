import { useId } from 'react';
import { formatCount } from '../../lib/format';
import { CALL_SCRIPT_MAX, callScriptStats } from './team-rules';


/** The Call Script tab: the compliance script template with its length, words and read time. */
export function CallScriptEditor({ script, onEdit }: { script: string; onEdit: (script: string) => void }) {
  const id = useId();
  const stats = callScriptStats(script);
  return (
    <section className="teams-section" aria-label="Call Script">
      <h2 className="teams-section__title">Call Script</h2>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Call script template
        </label>
        <span className="field__hint">Optional. Calls are checked against this compliance script.</span>
        <textarea id={id} className="field__input teams-textarea teams-script" rows={16} value={script} onChange={(event) => onEdit(event.target.value)} />
      </div>
      <dl className="teams-script-stats" aria-label="Call script statistics">
        <div>
          <dt>Length</dt>
          <dd className={stats.length > CALL_SCRIPT_MAX ? 'teams-counter--danger' : undefined}>
            {`${formatCount(stats.length)} / ${formatCount(CALL_SCRIPT_MAX)} characters`}
          </dd>
        </div>
        <div>
          <dt>Words</dt>
          <dd>{formatCount(stats.words)}</dd>
        </div>
        <div>
          <dt>Estimated read time</dt>
          <dd>{`${stats.readMinutes} min`}</dd>
        </div>
      </dl>
    </section>
  );
}
