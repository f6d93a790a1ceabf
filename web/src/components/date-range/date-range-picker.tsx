import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { formatDay } from '../../lib/format';
import { usePopoverDismiss } from '../../lib/ui/use-popover-dismiss';
import './date-range.css';
import {
  addMonths,
  calendarLimits,
  compareDays,
  DEFAULT_PRESET,
  formatDayLabel,
  formatMonth,
  isReportable,
  isSameDay,
  isWithin,
  monthWeeks,
  presetOf,
  presetRange,
  PRESETS,
  rangeBetween,
  startOfDay,
  startOfMonth,
  WEEKDAYS,
  type DateRange,
  type PresetId,
} from './date-range-logic';

/** Spec part 2 §9: under this width the calendar shows one month. */
export const MOBILE_BREAKPOINT_PX = 768;
const NARROW_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

export type DateRangeChange = DateRange & { preset: PresetId };

type DateRangePickerProps = {
  start: Date | null;
  end: Date | null;
  /** called with a complete range only: both ends set, on different days */
  onChange: (range: DateRangeChange) => void;
  /** today, for presets and limits; the clock by default */
  today?: Date;
  label?: string;
  /** whether This Quarter, shown when there are no dates at first, is reported as chosen (the activity screen's default; the dashboard has none) */
  reportsDefault?: boolean;
};

/** Whether the screen is narrower than the breakpoint, following it as it changes. */
function useNarrowScreen(): boolean {
  const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_QUERY) : null);
  const [narrow, setNarrow] = useState(() => query()?.matches ?? false);
  useEffect(() => {
    const list = query();
    if (!list) return;
    const onChange = () => setNarrow(list.matches);
    onChange();
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return narrow;
}

/**
 * The activity screen's date-range picker (spec part 2 §2.1): a presets dropdown and a calendar,
 * two months side by side on wide screens, one under 768 px. With no dates at first it picks This
 * Quarter and, unless told not to (`reportsDefault`), reports it. A custom range is two clicks, on different days; only then it reports.
 * It closes on a click outside or Escape.
 */
export function DateRangePicker({ start, end, onChange, today: givenToday, label = 'Date range', reportsDefault = true }: DateRangePickerProps) {
  const today = givenToday ?? new Date();
  const limits = calendarLimits(today);
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const [preset, setPreset] = useState<PresetId>(() => (start && end ? presetOf({ start, end }, today) : DEFAULT_PRESET));
  // The days clicked so far in this opening; the second click completes the range.
  const [draft, setDraft] = useState<{ start: Date | null; end: Date | null }>({ start, end });
  const [month, setMonth] = useState(() => startOfMonth(start ?? today));
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const popoverId = useId();
  const presetId = useId();

  const report = useRef(onChange);
  report.current = onChange;

  // First load without dates: This Quarter, reported once (when it is the screen's default).
  const defaulted = useRef(false);
  useEffect(() => {
    if (defaulted.current || start || end) return;
    defaulted.current = true;
    const range = presetRange(DEFAULT_PRESET, givenToday ?? new Date());
    setPreset(DEFAULT_PRESET);
    setDraft(range);
    if (reportsDefault) report.current({ ...range, preset: DEFAULT_PRESET });
  }, [start, end, givenToday, reportsDefault]);

  const openPicker = () => {
    setDraft({ start, end });
    setMonth(startOfMonth(start ?? today));
    setOpen(true);
  };

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  };

  // Focus moves into the popover when it opens (its presets first), so Escape from the keyboard
  // reaches it and Tab walks its controls.
  useLayoutEffect(() => {
    if (open) popover.current?.querySelector<HTMLElement>('select, button')?.focus();
  }, [open]);
  const onPopoverKeyDown = usePopoverDismiss(open, root, close);

  const choosePreset = (id: PresetId) => {
    setPreset(id);
    if (id === 'custom') {
      setDraft({ start: null, end: null });
      return;
    }
    const range = presetRange(id, today);
    setDraft(range);
    setMonth(startOfMonth(range.start));
    report.current({ ...range, preset: id });
  };

  const chooseDay = (day: Date) => {
    setPreset('custom');
    if (draft.start === null || draft.end !== null) {
      setDraft({ start: startOfDay(day), end: null });
      return;
    }
    const range = rangeBetween(draft.start, day);
    setDraft(range);
    if (isReportable(range.start, range.end)) report.current({ ...range, preset: 'custom' });
  };

  const monthsShown = narrow ? 1 : 2;
  const firstMonth = startOfMonth(limits.start);
  const lastMonth = addMonths(startOfMonth(limits.end), -(monthsShown - 1));
  const months = Array.from({ length: monthsShown }, (_, index) => addMonths(month, index));
  const summary = start && end ? `${formatDay(start)} – ${formatDay(end)}` : 'Choose dates';
  const presetLabel = PRESETS.find((entry) => entry.id === preset)?.label ?? '';

  return (
    <div className="date-range" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="button date-range__trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-label={`${label}: ${summary}`}
        onClick={() => (open ? close(false) : openPicker())}
      >
        <CalendarIcon /> {summary}
      </button>
      {open ? (
        <div
          ref={popover}
          id={popoverId}
          className="date-range__popover"
          role="dialog"
          aria-label={label}
          onKeyDown={onPopoverKeyDown}
        >
          <div className="date-range__presets">
            <label htmlFor={presetId}>Presets</label>
            <select id={presetId} className="field__input" value={preset} onChange={(event) => choosePreset(event.target.value as PresetId)}>
              {PRESETS.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.label}
                </option>
              ))}
            </select>
          </div>
          <div className="date-range__nav">
            <button type="button" className="button button--small" aria-label="Previous month" disabled={compareDays(month, firstMonth) <= 0} onClick={() => setMonth(addMonths(month, -1))}>
              ‹
            </button>
            <span className="visually-hidden" aria-live="polite">
              {months.map(formatMonth).join(', ')}
            </span>
            <button type="button" className="button button--small" aria-label="Next month" disabled={compareDays(month, lastMonth) >= 0} onClick={() => setMonth(addMonths(month, 1))}>
              ›
            </button>
          </div>
          <div className={`date-range__months date-range__months--${monthsShown}`}>
            {months.map((shown) => (
              <MonthGrid key={shown.toISOString()} month={shown} draft={draft} limits={limits} today={today} onChoose={chooseDay} />
            ))}
          </div>
          <p className="date-range__status">
            {draft.start && !draft.end ? `Start ${formatDay(draft.start)}: choose the last day.` : presetLabel}
          </p>
        </div>
      ) : null}
    </div>
  );
}

function MonthGrid({
  month,
  draft,
  limits,
  today,
  onChoose,
}: {
  month: Date;
  draft: { start: Date | null; end: Date | null };
  limits: DateRange;
  today: Date;
  onChoose: (day: Date) => void;
}) {
  const titleId = useId();
  const inRange = (day: Date) => draft.start !== null && draft.end !== null && compareDays(day, draft.start) >= 0 && compareDays(day, draft.end) <= 0;
  const isEdge = (day: Date) => (draft.start !== null && isSameDay(day, draft.start)) || (draft.end !== null && isSameDay(day, draft.end));
  return (
    <div className="date-range__month">
      <h3 id={titleId} className="date-range__title">
        {formatMonth(month)}
      </h3>
      <table className="date-range__grid" aria-labelledby={titleId}>
        <thead>
          <tr>
            {WEEKDAYS.map((day) => (
              <th key={day.short} scope="col" abbr={day.long}>
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week[0]!.toISOString()}>
              {week.map((day) => {
                if (day.getMonth() !== month.getMonth()) return <td key={day.toISOString()} />;
                const classes = ['date-range__day'];
                if (inRange(day)) classes.push('date-range__day--in-range');
                if (isEdge(day)) classes.push('date-range__day--edge');
                if (isSameDay(day, today)) classes.push('date-range__day--today');
                return (
                  <td key={day.toISOString()}>
                    <button
                      type="button"
                      className={classes.join(' ')}
                      aria-label={formatDayLabel(day)}
                      aria-pressed={isEdge(day) || inRange(day)}
                      disabled={!isWithin(day, limits)}
                      onClick={() => onChoose(day)}
                    >
                      {day.getDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CalendarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M4 1v2H2v12h12V3h-2V1h-1.5v2h-5V1zM3.5 6h9v7.5h-9z" fill="currentColor" />
    </svg>
  );
}
