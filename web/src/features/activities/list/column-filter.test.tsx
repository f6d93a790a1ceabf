import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { CheckEditor, ColumnFilter, NumberEditor, YesNoEditor } from './column-filter';
import { BOTH, NO_NUMBER, type NumberFilter, type YesNo } from './filter-params';

function renderYesNo(value: YesNo = BOTH) {
  const onApply = vi.fn();
  const view = render(
    <div>
      <p>outside</p>
      <ColumnFilter column="Successful" value={value} empty={BOTH} active={value.yes !== value.no} onApply={onApply}>
        {(draft, setDraft) => <YesNoEditor value={draft} onChange={setDraft} />}
      </ColumnFilter>
    </div>,
  );
  return { onApply, ...view };
}

const openFilter = (name = 'Filter Successful') => {
  fireEvent.click(screen.getByRole('button', { name }));
  return screen.getByRole('dialog', { name: 'Successful filter' });
};

describe('column filter dropdown', () => {
  it('applies nothing while open, and the edited value when it closes', () => {
    const { onApply } = renderYesNo();
    const dialog = openFilter();
    expect(screen.getByRole('button', { name: 'Filter Successful' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(within(dialog).getByLabelText('No'));
    expect(onApply).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onApply).toHaveBeenCalledTimes(1);
    expect(onApply).toHaveBeenCalledWith({ yes: true, no: false });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('applies nothing when it closes unchanged, or changed back', () => {
    const { onApply } = renderYesNo();
    fireEvent.click(within(openFilter()).getByRole('button', { name: 'Done' }));
    const dialog = openFilter();
    fireEvent.click(within(dialog).getByLabelText('Yes'));
    fireEvent.click(within(dialog).getByLabelText('Yes'));
    fireEvent.click(screen.getByRole('button', { name: 'Filter Successful' }));
    expect(onApply).not.toHaveBeenCalled();
  });

  it('closes and applies on a click outside and on Escape, but not on a click inside', () => {
    const { onApply } = renderYesNo();
    let dialog = openFilter();
    fireEvent.click(within(dialog).getByLabelText('Yes'));
    fireEvent.mouseDown(within(dialog).getByLabelText('No'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.mouseDown(screen.getByText('outside'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onApply).toHaveBeenLastCalledWith({ yes: false, no: true });

    dialog = openFilter();
    fireEvent.click(within(dialog).getByLabelText('No'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onApply).toHaveBeenCalledTimes(2);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Filter Successful' }));
  });

  it('starts each opening from the applied value, and Reset goes back to no filter', () => {
    const { onApply } = renderYesNo({ yes: false, no: true });
    const dialog = openFilter('Filter Successful (filtered)');
    expect((within(dialog).getByLabelText('Yes') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect((within(dialog).getByLabelText('Yes') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onApply).toHaveBeenCalledWith(BOTH);
  });

  it('turns an on/off filter on, and Reset turns it off', () => {
    const onApply = vi.fn();
    const { rerender } = render(
      <ColumnFilter<boolean> column="Needs review" value={false} empty={false} active={false} onApply={onApply}>
        {(draft, setDraft) => <CheckEditor value={draft} onChange={setDraft} label="Only calls with criteria to review" />}
      </ColumnFilter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Filter Needs review' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Needs review filter' })).getByRole('checkbox', { name: 'Only calls with criteria to review' }));
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onApply).toHaveBeenLastCalledWith(true);

    rerender(
      <ColumnFilter<boolean> column="Needs review" value={true} empty={false} active={true} onApply={onApply}>
        {(draft, setDraft) => <CheckEditor value={draft} onChange={setDraft} label="Only calls with criteria to review" />}
      </ColumnFilter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Filter Needs review (filtered)' }));
    const dialog = screen.getByRole('dialog', { name: 'Needs review filter' });
    expect((within(dialog).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onApply).toHaveBeenLastCalledWith(false);
    expect(onApply).toHaveBeenCalledTimes(2);
  });

  it('edits a value and its operator within limits', () => {
    const onApply = vi.fn();
    render(
      <ColumnFilter<NumberFilter> column="Duration" value={NO_NUMBER} empty={NO_NUMBER} active={false} onApply={onApply}>
        {(draft, setDraft) => <NumberEditor value={draft} onChange={setDraft} label="Minutes" min={0} max={100} step={1} />}
      </ColumnFilter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Filter Duration' }));
    const dialog = screen.getByRole('dialog', { name: 'Duration filter' });
    const input = within(dialog).getByLabelText('Minutes') as HTMLInputElement;
    expect([input.min, input.max]).toEqual(['0', '100']);
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual(['≤', '=', '≥']);
    fireEvent.change(within(dialog).getByLabelText('Operator'), { target: { value: 'eq' } });
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onApply).toHaveBeenCalledWith({ value: '12', operator: 'eq' });
  });
});
