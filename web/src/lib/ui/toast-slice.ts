import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

/** Spec part 1 §9: toast messages vanish after 3 seconds. */
export const TOAST_DURATION_MS = 3000;

export type ToastKind = 'success' | 'error' | 'info';
export type Toast = { id: string; kind: ToastKind; text: string };

export const toastSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.push(action.payload);
      },
      prepare(toast: { kind: ToastKind; text: string }) {
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
