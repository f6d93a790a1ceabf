import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// What the browser knows about the signed-in session. Sign-in fills this in later; for now it
// only holds the CSRF token the gateway hands out, which every state-changing request echoes.
export type SessionState = {
  csrfToken: string | null;
};

const initialState: SessionState = {
  csrfToken: null,
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    csrfTokenReceived(state, action: PayloadAction<string>) {
      state.csrfToken = action.payload;
    },
  },
  selectors: {
    selectCsrfToken: (state) => state.csrfToken,
  },
});

export const { csrfTokenReceived } = sessionSlice.actions;
export const { selectCsrfToken } = sessionSlice.selectors;
