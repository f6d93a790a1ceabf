/**
 * What the browser app needs to know about this deployment: the third parties it may talk to.
 * The same settings widen the content security policy for exactly those origins.
 */
export interface WebSettings {
  googleClientId?: string;
  demoSchedulingUrl?: string;
  demoContactEmail: string;
  analyticsScriptUrl?: string;
}

export const DEFAULT_WEB_SETTINGS: WebSettings = { demoContactEmail: 'sales@parlance.local' };

/** Google Identity Services serves its script, button frame and styles from this origin. */
export const GOOGLE_IDENTITY_ORIGIN = 'https://accounts.google.com';

const originOf = (url: string | undefined) => (url ? new URL(url).origin : undefined);

/** Extra origins per CSP directive, for the third parties this deployment has configured. */
export function thirdPartySources(settings: WebSettings): { script: string[]; frame: string[]; connect: string[]; style: string[] } {
  const google = settings.googleClientId ? [GOOGLE_IDENTITY_ORIGIN] : [];
  const analytics = originOf(settings.analyticsScriptUrl);
  const scheduling = originOf(settings.demoSchedulingUrl);
  return {
    script: [...google, ...(analytics ? [analytics] : [])],
    frame: [...google, ...(scheduling ? [scheduling] : [])],
    connect: [...google, ...(analytics ? [analytics] : [])],
    style: google,
  };
}
