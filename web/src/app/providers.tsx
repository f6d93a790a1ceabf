import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router/dom';
import type { DataRouter } from 'react-router';
import type { AppStore } from './store';

type AppProvidersProps = {
  store: AppStore;
  router: DataRouter;
};

// Everything the pages need from above: the store and the router. The app passes a browser
// router; tests pass a memory router built from the same routes.
export function AppProviders({ store, router }: AppProvidersProps) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  );
}
