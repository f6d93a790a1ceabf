import { useAppSelector } from '../../app/hooks';
import { selectUser } from '../../lib/auth/auth-slice';

/**
 * Notifications. The spec does not show this tab's contents, and Parlance has no notification
 * preferences to set, so it says which e-mails are sent (identity's mail/messages.ts) instead
 * of offering switches that would change nothing.
 */
export function NotificationsPanel() {
  const user = useAppSelector(selectUser);
  return (
    <section className="settings-section" aria-labelledby="settings-notifications-title">
      <h2 id="settings-notifications-title">Notifications</h2>
      <div className="card settings-prose">
        <p>Parlance sends e-mail only when someone does something that needs it. There are no newsletters, digests or marketing e-mails.</p>
        <h3>E-mails Parlance sends</h3>
        <ul className="settings-list">
          <li>
            <strong>E-mail address verification</strong>: after signing up with an e-mail address and password, a link to confirm the
            address. It works once and expires in 24 hours.
          </li>
          <li>
            <strong>Existing account notice</strong>: if someone tries to sign up with an address that already has an account, that address
            is told so instead of receiving a new link.
          </li>
          <li>
            <strong>Invitations</strong>: when an Admin invites someone to the company, the invited address receives a link to join. It
            works once and expires in 7 days.
          </li>
        </ul>
        {user ? (
          <p>
            E-mails for your account go to <strong>{user.email}</strong>.
          </p>
        ) : null}
        <p className="settings-note">Per-user notification preferences are not configurable in this version.</p>
      </div>
    </section>
  );
}
