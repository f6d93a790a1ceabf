import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** Spec part 1 §9: toast messages vanish after 3 seconds, unless the toast says otherwise. */
export const TOAST_DURATION_MS = 3000;

export type ToastKind = 'success' | 'warning' | 'error' | 'info';
/** `durationMs`: how long this toast stays (spec part 2 §4: the dialogs' toasts stay 5 s). */
export type Toast = { id: string; kind: ToastKind; text: string; durationMs?: number };

export const toastSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.push(action.payload);
      },
      prepare(toast: Omit<Toast, 'id'>) {
        return { payload: { id: nanoid(), ...toast } };
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      return state.filter((toast) => toast.id !== action.payload);
    },
  },
  selectors: {
    selectToasts: (state) => state,
  },
});

export const { toastShown, toastDismissed } = toastSlice.actions;
export const { selectToasts } = toastSlice.selectors;
