import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { RequireAuth } from './require-auth';
import { RouteErrorPage } from './route-error-page';
import { PageLoading } from '../components/page-loading';
import { HomePage } from '../features/home/home-page';

// Pages other than the landing page load on demand, so a visitor downloads only the page they
// open (the public-page JavaScript budget of issue 5).
const page = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K): RouteObject['lazy'] =>
  async () => ({ Component: (await load())[name] });

const legal = () => import('../features/legal/legal-pages');
const auth = {
  login: () => import('../features/auth/login-page'),
  emailSent: () => import('../features/auth/email-sent-page'),
  verifyEmail: () => import('../features/auth/verify-email-page'),
  acceptInvite: () => import('../features/auth/accept-invite-page'),
};
const crmOutcome = () => import('../features/integrations/crm-outcome-pages');

// The route table. main.tsx gives it to a browser router; tests give it to a memory router.
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's code arrives.
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/home', element: <HomePage /> },
      { path: '/login', lazy: page(auth.login, 'LoginPage') },
      { path: '/pricing', lazy: page(() => import('../features/pricing/pricing-page'), 'PricingPage') },
      { path: '/calculator', lazy: page(() => import('../features/calculator/calculator-page'), 'CalculatorPage') },
      { path: '/terms', lazy: page(legal, 'TermsPage') },
      { path: '/privacy', lazy: page(legal, 'PrivacyPage') },
      { path: '/dpa', lazy: page(legal, 'DpaPage') },
      { path: '/subprocessors', lazy: page(legal, 'SubprocessorsPage') },
      { path: '/cookies', lazy: page(legal, 'CookiesPage') },
      { path: '/auth/accept-invite', lazy: page(auth.acceptInvite, 'AcceptInvitePage') },
      { path: '/auth/email-sent', lazy: page(auth.emailSent, 'EmailSentPage') },
      { path: '/auth/verify-email', lazy: page(auth.verifyEmail, 'VerifyEmailPage') },
      { path: '/hubspot-oauth-success', lazy: page(crmOutcome, 'CrmConnectedPage') },
      { path: '/hubspot-oauth-failed', lazy: page(crmOutcome, 'CrmConnectionFailedPage') },
      { path: '/status', lazy: page(() => import('../features/system/status-page'), 'StatusPage') },
      {
        element: <RequireAuth />,
        children: [
          { path: '/teams', lazy: page(() => import('../features/teams/team-management-page'), 'TeamManagementPage') },
          { path: '/teams/:teamId', lazy: page(() => import('../features/teams/team-editor-page'), 'TeamEditorPage') },
          { path: '/settings', lazy: page(() => import('../features/settings/settings-page'), 'SettingsPage') },
          { path: '/dashboard', lazy: page(() => import('../features/dashboard/dashboard-page'), 'DashboardPage') },
          { path: '/dashboard/performance', lazy: page(() => import('../features/dashboard/performance/performance-page'), 'PerformancePage') },
          { path: '/dashboard/representatives/:email', lazy: page(() => import('../features/dashboard/coaching/coaching-page'), 'CoachingPage') },
          { path: '/activities', lazy: page(() => import('../features/activities/activities-page'), 'ActivitiesPage') },
          { path: '/integrations', lazy: page(() => import('../features/integrations/integrations-page'), 'IntegrationsPage') },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
