import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectToasts, toastDismissed, TOAST_DURATION_MS, type Toast } from '../lib/ui/toast-slice';

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  const duration = toast.durationMs ?? TOAST_DURATION_MS;
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastDismissed(toast.id)), duration);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, duration]);
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status'}>
      {toast.text}
    </div>
  );
}

/**
 * Where toasts appear, at the bottom right: success, warning, error or info styling. Each one
 * vanishes after its own duration, 3 seconds unless it names one (spec part 1 §9, part 2 §2.8).
 */
export function ToastRegion() {
  const toasts = useAppSelector(selectToasts);
  return (
    <div className="toast-region" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
