import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { selectToasts, toastDismissed, TOAST_DURATION_MS, type Toast } from '../lib/ui/toast-slice';

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastDismissed(toast.id)), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id]);
  return (
    <div className={`toast toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      {toast.text}
    </div>
  );
}

/** Where toasts appear; each one vanishes after 3 seconds (spec part 1 §9). */
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
