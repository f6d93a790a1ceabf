import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { NotificationModal, type Notification, type NotificationKind } from './notification-modal';

/** A page with a button that opens `notification`; the modal clears it on close, as the page does. */
function Harness({ notification, onClose }: { notification: Notification; onClose?: () => void }) {
  const [open, setOpen] = useState<Notification | null>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(notification)}>
        Open
      </button>
      <NotificationModal
        notification={open}
        onClose={() => {
          onClose?.();
          setOpen(null);
        }}
      />
    </>
  );
}

const note = (kind: NotificationKind, extra: Partial<Notification> = {}): Notification => ({ kind, title: `A ${kind}`, message: `Something ${kind}.`, ...extra });

function open(notification: Notification, onClose?: () => void) {
  render(<Harness notification={notification} onClose={onClose} />);
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  return screen.getByRole('dialog', { name: notification.title });
}

/** Past the close animation, the modal leaves the page. */
const finishClosing = () => act(() => vi.advanceTimersByTime(250));

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('notification modal (spec part 2 §2.12, §9)', () => {
  it('is a dialog named by its title, showing its message and detail, with focus inside it', () => {
    const dialog = open(note('error', { title: 'Loading Error', message: 'Failed to load integrations.', detail: 'Boom.' }));
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Failed to load integrations.');
    expect(dialog.textContent).toContain('Boom.');
    act(() => vi.advanceTimersByTime(0));
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it.each([
    ['success', 6000],
    ['warning', 8000],
    ['info', 5000],
  ] as const)('closes a %s by itself after %i ms', (kind, ms) => {
    const onClose = vi.fn();
    open(note(kind), onClose);
    act(() => vi.advanceTimersByTime(ms - 1));
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps an error open until it is closed', () => {
    const onClose = vi.fn();
    open(note('error'), onClose);
    act(() => vi.advanceTimersByTime(60_000));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'A error' })).toBeTruthy();
  });

  it('follows a time the notification names', () => {
    const onClose = vi.fn();
    open(note('error', { autoCloseMs: 4000 }), onClose);
    act(() => vi.advanceTimersByTime(4000));
    expect(onClose).toHaveBeenCalledTimes(1);
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays when a success names no time (null)', () => {
    const onClose = vi.fn();
    open(note('success', { autoCloseMs: null }), onClose);
    act(() => vi.advanceTimersByTime(60_000));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', () => {
    const dialog = open(note('error'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on its close button and on OK', () => {
    open(note('error'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on a click on the backdrop, not on one inside it', () => {
    const dialog = open(note('error'));
    fireEvent.mouseDown(dialog);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    finishClosing();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('gives focus back to what had it once it closes', () => {
    render(<Harness notification={note('info')} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    act(() => vi.advanceTimersByTime(0));
    expect(document.activeElement).not.toBe(opener);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    finishClosing();
    expect(document.activeElement).toBe(opener);
  });
});
