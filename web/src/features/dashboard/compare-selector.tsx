import { useId, useLayoutEffect, useRef, useState } from 'react';
import { usePopoverDismiss } from '../../lib/ui/use-popover-dismiss';

interface CompareSelectorProps {
  /** 'teams' or 'representatives', as the list is named. */
  noun: string;
  options: readonly { id: string; name: string }[];
  compared: readonly string[];
  summary: string;
  loading: boolean;
  onToggle: (id: string) => void;
  onSelectAll: () => void;
  onClear: () => void;
}

/**
 * The Compare selector (spec part 2 §2.9): a button naming what is compared, opening a list of
 * checkboxes with Select All and Clear (the disclosure pattern). It closes on a click outside or Escape.
 */
export function CompareSelector({ noun, options, compared, summary, loading, onToggle, onSelectAll, onClear }: CompareSelectorProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const popoverId = useId();

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  };
  const onPopoverKeyDown = usePopoverDismiss(open, root, close);
  useLayoutEffect(() => {
    if (open) popover.current?.querySelector<HTMLElement>('button, input')?.focus();
  }, [open]);

  return (
    <div className="dashboard-field compare" ref={root}>
      <span id={labelId} className="dashboard-field__label">
        Compare
      </span>
      <button
        ref={trigger}
        type="button"
        className="button compare__trigger"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-label={`Compare: ${summary}`}
        onClick={() => setOpen(!open)}
      >
        <span className="compare__summary">{summary}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div ref={popover} id={popoverId} className="compare__popover" role="group" aria-labelledby={labelId} onKeyDown={onPopoverKeyDown}>
          <div className="compare__actions">
            <button type="button" className="button button--small" disabled={options.length === 0} onClick={onSelectAll}>
              Select All
            </button>
            <button type="button" className="button button--small" disabled={compared.length === 0} onClick={onClear}>
              Clear
            </button>
          </div>
          {loading ? (
            <p className="compare__note">Loading {noun}…</p>
          ) : options.length === 0 ? (
            <p className="compare__note">No {noun} in this department.</p>
          ) : (
            <ul className="compare__list">
              {options.map((option) => (
                <li key={option.id}>
                  <label className="compare__option">
                    <input type="checkbox" checked={compared.includes(option.id)} onChange={() => onToggle(option.id)} />
                    <span>{option.name}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          {compared.length === 0 && options.length > 0 ? <p className="compare__note">None chosen: the whole department is counted.</p> : null}
        </div>
      ) : null}
    </div>
  );
}
