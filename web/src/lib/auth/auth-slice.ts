import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Company, User } from '../api/gateway-api.generated';

/**
 * Spec part 1 §4: 'loading' until the session is known, then 'authenticated' (a user and a
 * company) or 'unauthenticated'. Login, e-mail verification and Google sign-up all end in
 * `signedIn`; logout and an invalid or failed session lookup end in `signedOut`.
 */
export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export type AuthState = {
  status: AuthStatus;
  user: User | null;
  company: Company | null;
};

const initialState: AuthState = { status: 'loading', user: null, company: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<{ user: User; company: Company }>) {
      state.status = 'authenticated';
      state.user = action.payload.user;
      state.company = action.payload.company;
    },
    signedOut() {
      return { status: 'unauthenticated', user: null, company: null } satisfies AuthState;
    },
    profileUpdated(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
    companyRefreshed(state, action: PayloadAction<Company>) {
      state.company = action.payload;
    },
  },
  selectors: {
    selectAuthStatus: (state) => state.status,
    selectUser: (state) => state.user,
    selectCompany: (state) => state.company,
    selectIsAdmin: (state) => state.user?.role === 'admin',
  },
});

export const { signedIn, signedOut, profileUpdated, companyRefreshed } = authSlice.actions;
export const { selectAuthStatus, selectUser, selectCompany, selectIsAdmin } = authSlice.selectors;
