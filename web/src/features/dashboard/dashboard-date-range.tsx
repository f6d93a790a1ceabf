import { DateRangePicker, type DateRangeChange } from '../../components/date-range/date-range-picker';
import { localDay, parseLocalDay, type DayRange } from './dashboard-filters';
import type { PeriodPreset } from './metrics';

// The picker's presets as the performance screen's period presets; the 'last n days' ones have
// no counterpart there and travel as a custom range of the same days.
const PERIOD_PRESET: Record<DateRangeChange['preset'], PeriodPreset> = {
  thisWeek: 'this-week',
  thisMonth: 'this-month',
  thisQuarter: 'this-quarter',
  last7Days: 'custom',
  last14Days: 'custom',
  last30Days: 'custom',
  last90Days: 'custom',
  custom: 'custom',
};

/** A picker change as the dashboard keeps it: local days and the period preset. */
export const dayRangeOf = (change: DateRangeChange): DayRange => ({ from: localDay(change.start), to: localDay(change.end), preset: PERIOD_PRESET[change.preset] });

interface DashboardDateRangeProps {
  range: DayRange | undefined;
  onChange: (range: DayRange) => void;
}

/**
 * The date-range picker, starting with no period: the dashboard has no default period (spec part
 * 2 §2.9), so the This Quarter the picker shows at first is not reported. Remount it (a new key)
 * to reset it.
 */
export function DashboardDateRange({ range, onChange }: DashboardDateRangeProps) {
  return (
    <DateRangePicker
      start={range ? parseLocalDay(range.from) : null}
      end={range ? parseLocalDay(range.to) : null}
      onChange={(change) => onChange(dayRangeOf(change))}
      reportsDefault={false}
    />
  );
}
