import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { makeStore, type RootState } from '../app/store';
import { ToastRegion } from '../components/toast-region';

/**
 * Renders one part of a screen with a real store (preloaded with `state`) and the toast region
 * beside it, so the toasts it shows can be read; `rerender` keeps both.
 */
export function renderWithStore(ui: ReactElement, state: Partial<RootState>) {
  const store = makeStore(state);
  const wrap = (element: ReactElement) => (
    <Provider store={store}>
      {element}
      <ToastRegion />
    </Provider>
  );
  const view = render(wrap(ui));
  return { ...view, store, rerender: (element: ReactElement) => view.rerender(wrap(element)) };
}
