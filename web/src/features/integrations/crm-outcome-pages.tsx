import { Link, useSearchParams } from 'react-router';
import './integrations.css';

/** /hubspot-oauth-success: the second CRM is connected. */
export function CrmConnectedPage() {
  return (
    <section className="page page--narrow card">
      <h1>HubSpot connected</h1>
      <p>Parlance can now read your HubSpot contacts, deals and activities. The first sync starts in the background.</p>
      <div className="button-row">
        <Link className="button button--primary" to="/dashboard">
          Go to Dashboard
        </Link>
        <Link className="button" to="/integrations">
          View Integrations
        </Link>
      </div>
    </section>
  );
}

/**
 * /hubspot-oauth-failed: the authorisation was cancelled or failed on the way. The gateway names
 * the cause in `?reason=` (a sentence), shown as text under the alert.
 */
export function CrmConnectionFailedPage() {
  const [params] = useSearchParams();
  const reason = params.get('reason')?.trim();
  return (
    <section className="page page--narrow card">
      <h1>HubSpot was not connected</h1>
      <p className="alert" role="alert">
        The authorization was cancelled, or a temporary error stopped it. Nothing was changed; you can try again.
      </p>
      {reason ? <p className="crm-outcome__reason">{reason}</p> : null}
      <Link className="button button--primary" to="/integrations">
        Back to Integrations
      </Link>
    </section>
  );
}
