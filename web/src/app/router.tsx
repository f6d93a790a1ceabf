import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { RouteErrorPage } from './route-error-page';
import { HomePage } from '../features/home/home-page';
import { StatusPage } from '../features/system/status-page';

// The route table. main.tsx gives it to a browser router; tests give it to a memory router.
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/home', element: <HomePage /> },
      { path: '/status', element: <StatusPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
