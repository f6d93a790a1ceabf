import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setupListeners } from '@reduxjs/toolkit/query';
import { makeStore } from './app/store';
import { createAppRouter } from './app/router';
import { AppProviders } from './app/providers';
import { restoreSession } from './lib/auth/session';
import './styles.css';

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html has no #root element to render Parlance into');
}

const store = makeStore();
setupListeners(store.dispatch);
void store.dispatch(restoreSession());

createRoot(container).render(
  <StrictMode>
    <AppProviders store={store} router={createAppRouter()} />
  </StrictMode>,
);
