import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { routes } from '../app/router';
import { makeStore, type RootState } from '../app/store';
import { AppProviders } from '../app/providers';

// Renders the whole app (same routes, same store, same providers) at one path.
export function renderApp(path: string, preloadedState?: Partial<RootState>) {
  const store = makeStore(preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<AppProviders store={store} router={router} />);
  return { ...view, store, router };
}
