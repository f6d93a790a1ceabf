import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../app/store';
import { toastShown } from '../lib/ui/toast-slice';
import { ToastRegion } from './toast-region';

function renderRegion() {
  const store = makeStore();
  render(
    <Provider store={store}>
      <ToastRegion />
    </Provider>,
  );
  return store;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('toast region', () => {
  it('shows a toast in its kind’s style and removes it after 3 seconds by default', () => {
    const store = renderRegion();
    act(() => {
      store.dispatch(toastShown({ kind: 'success', text: 'Saved.' }));
    });
    const toast = screen.getByRole('status');
    expect(toast.textContent).toBe('Saved.');
    expect(toast.className).toBe('toast toast--success');
    act(() => vi.advanceTimersByTime(2999));
    expect(screen.queryByText('Saved.')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved.')).toBeNull();
    expect(store.getState().toasts).toEqual([]);
  });

  it('shows a warning as an alert in the warning style', () => {
    const store = renderRegion();
    act(() => {
      store.dispatch(toastShown({ kind: 'warning', text: 'Processed 1/2 files successfully.' }));
    });
    const toast = screen.getByRole('alert');
    expect(toast.textContent).toBe('Processed 1/2 files successfully.');
    expect(toast.className).toBe('toast toast--warning');
  });

  it('keeps a toast for the duration it names', () => {
    const store = renderRegion();
    act(() => {
      store.dispatch(toastShown({ kind: 'error', text: 'Failed to delete call.', durationMs: 5000 }));
      store.dispatch(toastShown({ kind: 'info', text: 'Short one.' }));
    });
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.queryByText('Short one.')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Failed to delete call.');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
