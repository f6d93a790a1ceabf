import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { routeTable, stubGateway } from '../../testing/stub-gateway';

const ALERT = 'The authorization was cancelled, or a temporary error stopped it. Nothing was changed; you can try again.';

describe('/hubspot-oauth-failed', () => {
  it('shows the gateway’s reason, as text, under the alert sentence', async () => {
    stubGateway(routeTable({}));
    const reason = 'This HubSpot sign-in link is unknown, already used or expired. <b>Start again</b> from the integrations screen.';
    renderApp(`/hubspot-oauth-failed?reason=${encodeURIComponent(reason)}`);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(ALERT);
    const shown = screen.getByText(reason);
    expect(shown.tagName).toBe('P');
    expect(shown.querySelector('b')).toBeNull();
    expect(alert.nextElementSibling).toBe(shown);
    expect(screen.getByRole('link', { name: 'Back to Integrations' }).getAttribute('href')).toBe('/integrations');
  });

  it('shows only the alert sentence without a reason, or with an empty one', async () => {
    stubGateway(routeTable({}));
    const first = renderApp('/hubspot-oauth-failed');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(ALERT);
    expect(alert.nextElementSibling!.tagName).toBe('A');
    first.unmount();

    renderApp('/hubspot-oauth-failed?reason=%20%20');
    expect((await screen.findByRole('alert')).nextElementSibling!.tagName).toBe('A');
  });
});
