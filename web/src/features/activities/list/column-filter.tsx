import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { usePopoverDismiss } from '../../../lib/ui/use-popover-dismiss';
import { OPERATORS, type NumberFilter, type Operator, type YesNo } from './filter-params';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type ColumnFilterProps<T> = {
  /** the column's name: the button reads 'Filter {column}' */
  column: string;
  /** the applied value */
  value: T;
  /** what Reset puts back: the value that does not filter */
  empty: T;
  /** whether the applied value narrows the list (the button shows it) */
  active: boolean;
  /** called when the dropdown closes with a value other than the applied one (spec part 2 §4) */
  onApply: (value: T) => void;
  equals?: (a: T, b: T) => boolean;
  children: (draft: T, setDraft: (next: T) => void) => ReactNode;
};

/** The popover's width in pixels (16rem in activities.css); it is kept inside the viewport. */
const POPOVER_WIDTH_PX = 256;

/**
 * A column's filter dropdown. Edits stay in a draft while it is open; closing it (its button
 * again, Done, Escape or a click outside) applies the draft only when it differs from the applied
 * value, so only a changed filter reloads the list. The popover is fixed to the viewport, so the
 * table's own scroll container does not clip it.
 */
export function ColumnFilter<T>({ column, value, empty, active, onApply, equals = sameJson, children }: ColumnFilterProps<T>) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(value);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const popoverId = useId();

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (!equals(draft, value)) onApply(draft);
    if (returnFocus) button.current?.focus();
  };

  const place = useCallback(() => {
    const rect = button.current?.getBoundingClientRect();
    if (!rect) return;
    const maxLeft = Math.max(8, window.innerWidth - POPOVER_WIDTH_PX - 8);
    setPosition({ top: rect.bottom + 4, left: Math.min(Math.max(8, rect.left), maxLeft) });
  }, []);

  const popover = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!open) return;
    place();
    popover.current?.querySelector<HTMLElement>('input, select, button')?.focus();
  }, [open, place]);

  const onPopoverKeyDown = usePopoverDismiss(open, root, close);

  useEffect(() => {
    if (!open) return;
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open, place]);

  const toggle = () => {
    if (open) {
      close(false);
    } else {
      setDraft(value);
      setOpen(true);
    }
  };

  return (
    <div className="column-filter" ref={root}>
      <button
        ref={button}
        type="button"
        className={`column-filter__button${active ? ' column-filter__button--active' : ''}`}
        aria-label={`Filter ${column}${active ? ' (filtered)' : ''}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        onClick={toggle}
      >
        <FunnelIcon />
      </button>
      {open ? (
        <div
          ref={popover}
          id={popoverId}
          role="dialog"
          aria-label={`${column} filter`}
          className="column-filter__popover"
          style={position ? { top: position.top, left: position.left } : undefined}
          onKeyDown={onPopoverKeyDown}
        >
          {children(draft, setDraft)}
          <div className="column-filter__actions">
            <button type="button" className="button button--small" onClick={() => setDraft(empty)}>
              Reset
            </button>
            <button type="button" className="button button--small button--primary" onClick={() => close(true)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function FunnelIcon() {
  return (
    <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d="M1 2h14l-5.5 6.5V14l-3-1.5V8.5z" fill="currentColor" />
    </svg>
  );
}

/** Success and criterion columns: a yes/no pair; both ticked means no filter. */
export function YesNoEditor({ value, onChange }: { value: YesNo; onChange: (next: YesNo) => void }) {
  return (
    <fieldset className="column-filter__fieldset">
      <legend className="visually-hidden">Show results</legend>
      <label className="column-filter__check">
        <input type="checkbox" checked={value.yes} onChange={(event) => onChange({ ...value, yes: event.target.checked })} />
        Yes
      </label>
      <label className="column-filter__check">
        <input type="checkbox" checked={value.no} onChange={(event) => onChange({ ...value, no: event.target.checked })} />
        No
      </label>
    </fieldset>
  );
}

/** Duration, score and script match: an operator and a value within limits. */
export function NumberEditor({
  value,
  onChange,
  label,
  min,
  max,
  step = 'any',
}: {
  value: NumberFilter;
  onChange: (next: NumberFilter) => void;
  /** names the value and its unit: 'Minutes', 'Score', 'Percent' */
  label: string;
  min: number;
  max: number;
  step?: number | 'any';
}) {
  const operatorId = useId();
  const valueId = useId();
  return (
    <div className="column-filter__number">
      <label htmlFor={operatorId} className="visually-hidden">
        Operator
      </label>
      <select id={operatorId} className="field__input" value={value.operator} onChange={(event) => onChange({ ...value, operator: event.target.value as Operator })}>
        {OPERATORS.map((operator) => (
          <option key={operator.value} value={operator.value} aria-label={operator.label}>
            {operator.symbol}
          </option>
        ))}
      </select>
      <label htmlFor={valueId} className="visually-hidden">
        {label}
      </label>
      <input
        id={valueId}
        className="field__input"
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        placeholder={label}
        value={value.value}
        onChange={(event) => onChange({ ...value, value: event.target.value })}
      />
      <p className="column-filter__hint">{`${label}, ${min} to ${max}`}</p>
    </div>
  );
}

/** Representatives: one checkbox each; none ticked means everyone. */
export function ChecklistEditor({
  options,
  value,
  onChange,
  emptyText,
}: {
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  emptyText: string;
}) {
  if (options.length === 0) return <p className="column-filter__hint">{emptyText}</p>;
  return (
    <fieldset className="column-filter__fieldset column-filter__list">
      <legend className="visually-hidden">Show only</legend>
      {options.map((option) => (
        <label key={option.value} className="column-filter__check">
          <input
            type="checkbox"
            checked={value.includes(option.value)}
            onChange={(event) => onChange(event.target.checked ? [...value, option.value] : value.filter((entry) => entry !== option.value))}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A filter that is on or off, such as Needs review: one checkbox; off means no filter. */
export function CheckEditor({ value, onChange, label }: { value: boolean; onChange: (next: boolean) => void; label: string }) {
  return (
    <label className="column-filter__check">
      <input type="checkbox" checked={value} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

/** Contact ids, call ids and meeting ids: comma-separated text. */
export function TextListEditor({ value, onChange, label }: { value: string; onChange: (next: string) => void; label: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="column-filter__label">
        {label}
      </label>
      <input id={id} className="field__input" type="text" value={value} placeholder="id1, id2" onChange={(event) => onChange(event.target.value)} />
      <p className="column-filter__hint">Separate several with commas.</p>
    </div>
  );
}
