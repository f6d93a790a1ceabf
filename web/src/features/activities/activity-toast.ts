import { useCallback } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { toastShown, type ToastKind } from '../../lib/ui/toast-slice';

/** Spec part 2 §4, §9: the activity screen's toasts (lists, uploads, summaries) stay 5 seconds. */
const ACTIVITY_TOAST_MS = 5000;

type ActivityToast = { kind: ToastKind; text: string };

/** Shows a toast of the activity screen, for its 5 seconds. */
export function useActivityToast() {
  const dispatch = useAppDispatch();
  return useCallback((toast: ActivityToast) => dispatch(toastShown({ ...toast, durationMs: ACTIVITY_TOAST_MS })), [dispatch]);
}
