/**
 * Sends the browser to another site's page (HubSpot's consent page), leaving the app. An object
 * rather than a bare call, so a test can stand in for `assign` (jsdom cannot navigate away).
 */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
