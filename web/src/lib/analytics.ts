/**
 * Product analytics (spec part 1 §7): events for login, logout, signup and email_verified carry
 * the app version and the company id. They go to `window.dataLayer`, the queue that tag managers
 * and most web analytics scripts read; the deployment's analytics script (if it configured one,
 * see GET /api/web-config) is injected on load to pick them up. Without a script the queue
 * simply stays in the page.
 */
export const APP_VERSION = '7.0.0';

export type AnalyticsEventName = 'login' | 'logout' | 'signup' | 'email_verified';

export type AnalyticsEvent = {
  event: AnalyticsEventName;
  app_version: string;
  company_id: string | null;
};

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function trackEvent(event: AnalyticsEventName, companyId: string | null | undefined): void {
  const entry: AnalyticsEvent = { event, app_version: APP_VERSION, company_id: companyId ?? null };
  (window.dataLayer ??= []).push(entry);
}

const SCRIPT_MARKER = 'data-parlance-analytics';

/** Adds the analytics script to the page once; later calls with the same address do nothing. */
export function injectAnalyticsScript(src: string): void {
  if (document.querySelector(`script[${SCRIPT_MARKER}]`)) return;
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  script.setAttribute(SCRIPT_MARKER, '');
  document.head.appendChild(script);
}
