import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** Open and close animations take about 0.2 s (spec part 1 §2, demo modal). */
export const MODAL_ANIMATION_MS = 200;

/** The modals open now, the last opened last: Escape pressed outside any of them closes the top one only. */
const openModals: object[] = [];

type ModalProps = {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** Called once the closing animation has finished (the spec clears selections only then). */
  onClosed?: () => void;
  footer?: ReactNode;
  children: ReactNode;
  size?: 'normal' | 'wide';
};

/**
 * A dialog over a backdrop: the close button, a click on the backdrop and Escape (wherever focus
 * is, for the modal opened last) close it. Focus
 * moves into it when it opens, stays inside while Tab cycles, and goes back where it was after.
 */
export function Modal({ open, title, onClose, onClosed, footer, children, size = 'normal' }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(open);
  const [visible, setVisible] = useState(false);
  const closedCallback = useRef(onClosed);
  closedCallback.current = onClosed;

  useEffect(() => {
    if (open) {
      setMounted(true);
      const frame = requestAnimationFrame(() => setVisible(true));
      return () => cancelAnimationFrame(frame);
    }
    setVisible(false);
    const timer = setTimeout(() => {
      setMounted(false);
      closedCallback.current?.();
    }, MODAL_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, [open]);

  useEffect(() => {
    if (!open || !mounted) return;
    const before = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus], input, select, textarea, button:not([disabled])');
    (first ?? panel.current)?.focus();
    return () => before?.focus?.();
  }, [open, mounted]);

  // Escape also closes it while focus is still outside it: pressed the moment it opened, before
  // focus has moved in, or with focus left on the page behind (after a sign-in pop-up closed).
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    const self = {};
    openModals.push(self);
    const onDocumentKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || openModals.at(-1) !== self || panel.current?.contains(event.target as Node)) return;
      close.current();
    };
    document.addEventListener('keydown', onDocumentKeyDown);
    return () => {
      document.removeEventListener('keydown', onDocumentKeyDown);
      openModals.splice(openModals.indexOf(self), 1);
    };
  }, [open]);

  if (!mounted) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
    if (event.key === 'Tab' && panel.current) {
      const focusable = Array.from(
        panel.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select, textarea, iframe, [tabindex]:not([tabindex="-1"])'),
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  return createPortal(
    <div
      className={`modal-backdrop${visible ? ' modal-backdrop--visible' : ''}`}
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`modal modal--${size}`}
        onKeyDown={onKeyDown}
      >
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="modal__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="modal__body">{children}</div>
        {footer ? <div className="modal__footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
