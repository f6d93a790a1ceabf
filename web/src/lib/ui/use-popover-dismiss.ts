import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/**
 * How a popover (a dropdown that is not modal) is dismissed: while it is open, a mouse-down
 * outside `root` (its trigger and itself) calls `onDismiss(false)`, and Escape inside it calls
 * `onDismiss(true)`, focus going back to the trigger. Returns the popover's onKeyDown handler.
 */
export function usePopoverDismiss(open: boolean, root: RefObject<HTMLElement | null>, onDismiss: (returnFocus: boolean) => void) {
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) dismiss.current(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open, root]);

  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // The popover may sit in a modal: Escape closes the popover only.
    event.stopPropagation();
    dismiss.current(true);
  };
}
