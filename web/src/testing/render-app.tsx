import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { routes } from '../app/router';
import { makeStore, type RootState } from '../app/store';
import { AppProviders } from '../app/providers';
import { restoreSession } from '../lib/auth/session';

// Renders the whole app (same routes, same store, same providers) at one path. Without a
// preloaded sign-in it starts as main.tsx does, by restoring the session.
export function renderApp(path: string, preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  if (!preloadedState?.auth) void store.dispatch(restoreSession());
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<AppProviders store={store} router={router} />);
  return { ...view, store, router };
}
