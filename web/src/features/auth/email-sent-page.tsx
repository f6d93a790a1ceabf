import { Link, useSearchParams } from 'react-router';
import './auth.css';

/** /auth/email-sent?email=: the verification link is on its way; sign-up does not sign in. */
export function EmailSentPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  return (
    <section className="page page--narrow auth-status card">
      <h1>Check your e-mail</h1>
      <p>
        We sent a verification link to {email ? <strong>{email}</strong> : 'your e-mail address'}. Open it to confirm the address and
        sign in; the link works once.
      </p>
      <p className="field__hint">Nothing arrived after a few minutes? Look in your spam folder, or sign up again to get a new link.</p>
      <div className="button-row">
        <Link className="button" to={`/login?mode=signup${email ? `&email=${encodeURIComponent(email)}` : ''}`}>
          Sign up again
        </Link>
        <Link className="button button--primary" to="/login">
          Back to login
        </Link>
      </div>
    </section>
  );
}
