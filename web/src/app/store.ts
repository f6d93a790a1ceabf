import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api/api-slice';
import { csrfSlice } from '../lib/api/csrf-slice';

const rootReducer = combineSlices(api, csrfSlice);

export type RootState = ReturnType<typeof rootReducer>;

// Tests build their own store with the same function, starting from any state they need.
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
