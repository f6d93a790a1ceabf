import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api/api-slice';
import { csrfSlice } from '../lib/api/csrf-slice';
import { authSlice } from '../lib/auth/auth-slice';
import { departmentSlice } from '../lib/auth/department-slice';
import { sessionStorageListener } from '../lib/auth/session';
import { demoSlice } from '../lib/ui/demo-slice';
import { toastSlice } from '../lib/ui/toast-slice';

const rootReducer = combineSlices(api, csrfSlice, authSlice, departmentSlice, demoSlice, toastSlice);

export type RootState = ReturnType<typeof rootReducer>;

// Tests build their own store with the same function, starting from any state they need.
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(sessionStorageListener.middleware).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
