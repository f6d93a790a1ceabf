import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectCompany, selectUser } from '../../lib/auth/auth-slice';
import { ROLE_OPTIONS, roleLabel } from './settings-rules';

/**
 * Security and Data. The spec does not show this tab's contents; it states how Parlance really
 * protects the account (identity: argon2id, hashed expiring sessions; gateway: CSRF, HttpOnly
 * cookies) and the retention the privacy policy promises. Nothing here is a setting.
 */
export function SecurityPanel() {
  const user = useAppSelector(selectUser);
  const company = useAppSelector(selectCompany);
  const role = ROLE_OPTIONS.find((option) => option.value === user?.role);

  return (
    <section className="settings-section" aria-labelledby="settings-security-title">
      <h2 id="settings-security-title">Security and Data</h2>

      <div className="card settings-prose">
        <h3>Your account</h3>
        <dl className="facts">
          <dt>Signed in as</dt>
          <dd>{user?.email ?? 'Unknown'}</dd>
          <dt>Role</dt>
          <dd>
            {user ? roleLabel(user.role) : 'Unknown'}
            {role ? <span className="settings-muted"> ({role.description})</span> : null}
          </dd>
          {company ? (
            <>
              <dt>Company</dt>
              <dd>{company.name}</dd>
            </>
          ) : null}
        </dl>
      </div>

      <div className="card settings-prose">
        <h3>How your account is protected</h3>
        <ul className="settings-list">
          <li>
            <strong>Passwords</strong> are stored only as argon2id hashes. Nobody, Parlance staff included, can read your password.
          </li>
          <li>
            <strong>Sessions</strong> live in an HttpOnly cookie your browser's scripts cannot read, and the server keeps only a hash of the
            session token. A session ends after 3 days without activity and after 14 days at the latest; signing out ends it at once.
          </li>
          <li>
            <strong>Changes</strong> (saving, inviting, removing) carry a CSRF token, so another website cannot make them on your behalf.
          </li>
        </ul>
      </div>

      <div className="card settings-prose">
        <h3>Your data</h3>
        <p>Conversation and CRM data are kept for up to 90 days by default.</p>
        <p>
          Read the <Link to="/privacy">Privacy Policy</Link> and the <Link to="/dpa">Data Processing Agreement</Link> for the details.
        </p>
      </div>
    </section>
  );
}
