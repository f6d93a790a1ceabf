import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// The CSRF token the gateway hands out (GET /api/csrf-token, and with every sign-in), which every
// state-changing request echoes in X-CSRF-Token. It lives next to the API slice that sends it.
export type CsrfState = {
  token: string | null;
};

const initialState: CsrfState = {
  token: null,
};

export const csrfSlice = createSlice({
  name: 'csrf',
  initialState,
  reducers: {
    csrfTokenReceived(state, action: PayloadAction<string>) {
      state.token = action.payload;
    },
  },
  selectors: {
    selectCsrfToken: (state) => state.token,
  },
});

export const { csrfTokenReceived } = csrfSlice.actions;
export const { selectCsrfToken } = csrfSlice.selectors;
