import { useEffect, useRef, useState } from 'react';
import { Modal } from '../../components/modal';

export type NotificationKind = 'success' | 'warning' | 'error' | 'info';

/**
 * Spec part 2 §9: how long each kind stays before closing by itself. An error stays until it is
 * closed; a notification may name its own time (`autoCloseMs`), or null to stay.
 */
export const NOTIFICATION_AUTO_CLOSE_MS: Record<NotificationKind, number | null> = {
  success: 6000,
  warning: 8000,
  info: 5000,
  error: null,
};

export type Notification = {
  kind: NotificationKind;
  title: string;
  message: string;
  /** A second line: the cause, or what to do next. */
  detail?: string;
  autoCloseMs?: number | null;
  /** A next step offered beside OK, e.g. opening the settings to choose a new Drive folder; it closes the modal too. */
  action?: { label: string; onClick: () => void };
};

const ICONS: Record<NotificationKind, string> = { success: '✓', warning: '!', error: '×', info: 'i' };

type NotificationModalProps = {
  /** The notification to show; null when none is open. */
  notification: Notification | null;
  onClose: () => void;
};

/**
 * The integrations screen's notification modal (spec part 2 §2.12): success, warning, error or
 * info, with an optional next step beside OK. It closes on a backdrop click, Escape, its close or
 * OK button, or its kind's timer. Focus moves into it when it opens and back where it was when it
 * closes (the shared Modal does that).
 */
export function NotificationModal({ notification, onClose }: NotificationModalProps) {
  // The last notification stays on screen while the modal fades out.
  const [shown, setShown] = useState(notification);
  if (notification && notification !== shown) setShown(notification);

  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!notification) return;
    const delay = notification.autoCloseMs === undefined ? NOTIFICATION_AUTO_CLOSE_MS[notification.kind] : notification.autoCloseMs;
    if (delay === null) return;
    const timer = setTimeout(() => close.current(), delay);
    return () => clearTimeout(timer);
  }, [notification]);

  const kind = shown?.kind ?? 'info';
  return (
    <Modal
      open={notification !== null}
      onClose={onClose}
      onClosed={() => setShown(null)}
      title={
        <span className="notification__title">
          <span className={`notification__icon notification__icon--${kind}`} aria-hidden="true">
            {ICONS[kind]}
          </span>
          {shown?.title}
        </span>
      }
      footer={
        <>
          {shown?.action ? (
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                onClose();
                shown.action?.onClick();
              }}
            >
              {shown.action.label}
            </button>
          ) : null}
          <button type="button" className={shown?.action ? 'button' : 'button button--primary'} onClick={onClose}>
            OK
          </button>
        </>
      }
    >
      <div className={`notification notification--${kind}`}>
        <p className="notification__message">{shown?.message}</p>
        {shown?.detail ? <p className="notification__detail">{shown.detail}</p> : null}
      </div>
    </Modal>
  );
}
