import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './modal';

describe('Modal', () => {
  it('closes on Escape pressed while focus is still outside it, as right after it opened', () => {
    const onClose = vi.fn();
    render(
      <>
        <button type="button">Behind</button>
        <Modal open title="Connection Successful" onClose={onClose}>
          Connected.
        </Modal>
      </>,
    );
    screen.getByRole('button', { name: 'Behind' }).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes only the modal opened last when Escape is pressed outside both, and once when pressed inside', () => {
    const closeFirst = vi.fn();
    const closeSecond = vi.fn();
    render(
      <>
        <Modal open title="Summary" onClose={closeFirst}>
          First.
        </Modal>
        <Modal open title="Report Issue" onClose={closeSecond}>
          <input aria-label="Describe the issue" />
        </Modal>
      </>,
    );
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect([closeFirst.mock.calls.length, closeSecond.mock.calls.length]).toEqual([0, 1]);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Describe the issue' }), { key: 'Escape' });
    expect([closeFirst.mock.calls.length, closeSecond.mock.calls.length]).toEqual([0, 2]);
  });
});
