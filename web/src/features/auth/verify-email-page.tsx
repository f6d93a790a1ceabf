import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { gatewayApi } from '../../lib/api/gateway-api.generated';
import { errorMessage } from '../../lib/api/error-message';
import { isValidSession, sessionStarted } from '../../lib/auth/session';
import { trackEvent } from '../../lib/analytics';
import { Spinner } from '../../components/spinner';
import './auth.css';

/** Spec part 1 §9: the success page moves on to the dashboard after this long. */
export const VERIFY_REDIRECT_MS = 3000;
export const VERIFY_MESSAGES = {
  noToken: 'Invalid verification link',
  failed: 'Verification failed',
  badResponse: 'Invalid verification response',
} as const;

type Verification = { state: 'loading' } | { state: 'success' } | { state: 'error'; message: string };

/**
 * /auth/verify-email?token=: confirms the address once (a second render or React's development
 * double effect must not spend the one-time token twice), signs in, and goes on after 3 s.
 */
export function VerifyEmailPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [result, setResult] = useState<Verification>(token ? { state: 'loading' } : { state: 'error', message: VERIFY_MESSAGES.noToken });
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void (async () => {
      const answer = await dispatch(gatewayApi.endpoints.verifyEmail.initiate({ body: { token } }));
      if (answer.error) return setResult({ state: 'error', message: errorMessage(answer.error, VERIFY_MESSAGES.failed) });
      if (!isValidSession(answer.data)) return setResult({ state: 'error', message: VERIFY_MESSAGES.badResponse });
      dispatch(sessionStarted(answer.data));
      trackEvent('email_verified', answer.data.company.id);
      setResult({ state: 'success' });
    })();
  }, [dispatch, token]);

  useEffect(() => {
    if (result.state !== 'success') return;
    const timer = setTimeout(() => navigate('/dashboard'), VERIFY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate, result.state]);

  return (
    <section className="page page--narrow auth-status card" aria-live="polite">
      {result.state === 'loading' && (
        <>
          <h1>Verifying your e-mail</h1>
          <p>
            <Spinner /> One moment…
          </p>
        </>
      )}
      {result.state === 'success' && (
        <>
          <h1>E-mail verified</h1>
          <p>Your address is confirmed and you are signed in. Taking you to your dashboard in 3 seconds.</p>
          <Link className="button button--primary" to="/dashboard">
            Go to Dashboard
          </Link>
        </>
      )}
      {result.state === 'error' && (
        <>
          <h1>We could not verify your e-mail</h1>
          <p className="alert" role="alert">
            {result.message}
          </p>
          <div className="button-row">
            <Link className="button" to="/login?mode=signup">
              Sign up
            </Link>
            <Link className="button button--primary" to="/login">
              Login
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
