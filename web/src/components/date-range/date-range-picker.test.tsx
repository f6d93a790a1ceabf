import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { DateRangePicker, type DateRangeChange } from './date-range-picker';

// Thursday 14 August 2025.
const today = new Date(2025, 7, 14, 10, 0);
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);
const endOf = (y: number, m: number, d: number) => new Date(y, m - 1, d, 23, 59, 59, 999);

/** A page holding the range as the activity screen does. */
function Harness({ onChange, initial }: { onChange: (change: DateRangeChange) => void; initial?: { start: Date; end: Date } }) {
  const [range, setRange] = useState<{ start: Date; end: Date } | null>(initial ?? null);
  return (
    <div>
      <p>outside</p>
      <DateRangePicker
        start={range?.start ?? null}
        end={range?.end ?? null}
        today={today}
        onChange={(change) => {
          setRange(change);
          onChange(change);
        }}
      />
    </div>
  );
}

function stubScreen(narrow: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: narrow && query === '(max-width: 767px)', media: query, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );
}

const trigger = () => screen.getByRole('button', { name: /^Date range:/ });
const monthTitles = () => screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('date range picker', () => {
  it('defaults to This Quarter on first load without dates and reports it once', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ start: day(2025, 7, 1), end: endOf(2025, 9, 30), preset: 'thisQuarter' });
    expect(trigger().textContent).toContain('Jul 1, 2025 – Sep 30, 2025');
  });

  it('does not report a default when dates are given', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} initial={{ start: day(2025, 8, 1), end: endOf(2025, 8, 31) }} />);
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(trigger());
    expect((screen.getByLabelText('Presets') as HTMLSelectElement).value).toBe('thisMonth');
  });

  it('offers the presets in order and reports the chosen one', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    fireEvent.click(trigger());
    const presets = screen.getByLabelText('Presets') as HTMLSelectElement;
    expect(Array.from(presets.options).map((option) => option.textContent)).toEqual([
      'This Week',
      'This Month',
      'This Quarter',
      'Last 7 days',
      'Last 14 days',
      'Last 30 days',
      'Last 90 days',
      'Custom Range',
    ]);
    expect(presets.value).toBe('thisQuarter');
    fireEvent.change(presets, { target: { value: 'thisWeek' } });
    expect(onChange).toHaveBeenLastCalledWith({ start: day(2025, 8, 11), end: endOf(2025, 8, 17), preset: 'thisWeek' });
    fireEvent.change(presets, { target: { value: 'last7Days' } });
    expect(onChange).toHaveBeenLastCalledWith({ start: day(2025, 8, 8), end: endOf(2025, 8, 14), preset: 'last7Days' });
  });

  it('reports a custom range only once both ends are chosen on different days', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    onChange.mockClear();
    fireEvent.click(trigger());
    fireEvent.change(screen.getByLabelText('Presets'), { target: { value: 'custom' } });
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Wednesday, August 20, 2025' }));
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Wednesday, August 20, 2025' }));
    expect(onChange).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Monday, August 4, 2025' }));
    fireEvent.click(screen.getByRole('button', { name: 'Saturday, August 2, 2025' }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ start: day(2025, 8, 2), end: endOf(2025, 8, 4), preset: 'custom' });
    expect(screen.getByRole('button', { name: 'Sunday, August 3, 2025' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Tuesday, August 5, 2025' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('lays the weeks out Monday first', () => {
    render(<Harness onChange={vi.fn()} />);
    fireEvent.click(trigger());
    const grid = screen.getAllByRole('table')[0]!;
    expect(within(grid).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
    // July 2025 begins on a Tuesday: the first row leaves Monday empty.
    const firstWeek = within(grid).getAllByRole('row')[1]!;
    expect(within(firstWeek).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['', '1', '2', '3', '4', '5', '6']);
  });

  it('shows two months side by side on a wide screen and one under 768 px', () => {
    stubScreen(false);
    const { unmount } = render(<Harness onChange={vi.fn()} />);
    fireEvent.click(trigger());
    expect(monthTitles()).toEqual(['July 2025', 'August 2025']);
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }));
    expect(monthTitles()).toEqual(['August 2025', 'September 2025']);
    unmount();

    stubScreen(true);
    render(<Harness onChange={vi.fn()} />);
    fireEvent.click(trigger());
    expect(monthTitles()).toEqual(['July 2025']);
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(monthTitles()).toEqual(['June 2025']);
  });

  it('closes on a click outside and on Escape, not on a click inside', () => {
    render(<Harness onChange={vi.fn()} />);
    fireEvent.click(trigger());
    expect(trigger().getAttribute('aria-expanded')).toBe('true');
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('dialog', { name: 'Date range' })).toBeTruthy();
    fireEvent.mouseDown(screen.getByText('outside'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(trigger().getAttribute('aria-expanded')).toBe('false');

    // Opening moves focus into the popover, so Escape pressed right away closes it.
    fireEvent.click(trigger());
    expect(document.activeElement).toBe(screen.getByLabelText('Presets'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger());
  });
});
