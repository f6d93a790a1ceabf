import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { gatewayApi, type AcceptInviteApiResponse } from '../../lib/api/gateway-api.generated';
import { errorMessage } from '../../lib/api/error-message';
import { Spinner } from '../../components/spinner';
import './auth.css';

export const INVITE_MESSAGES = {
  noToken: 'No invitation token found. Please check your invite link.',
  invalid: 'Invalid or expired invitation.',
  accepted: 'Invitation accepted successfully!',
} as const;

type Acceptance = { state: 'processing' } | { state: 'accepted'; answer: AcceptInviteApiResponse } | { state: 'failed'; message: string };

/** Where the accepted person goes next: sign up with the invited address, or sign in. */
function nextStep(answer: AcceptInviteApiResponse): { to: string; label: string } {
  const email = encodeURIComponent(answer.email);
  if (answer.requiresSignUp) return { to: `/login?mode=signup&email=${email}`, label: 'Create your account' };
  return { to: `/login?email=${email}`, label: 'Go to Login' };
}

/** /auth/accept-invite?token=: processing, then accepted (on to login) or failed (back home). */
export function AcceptInvitePage() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [result, setResult] = useState<Acceptance>(token ? { state: 'processing' } : { state: 'failed', message: INVITE_MESSAGES.noToken });
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void (async () => {
      const answer = await dispatch(gatewayApi.endpoints.acceptInvite.initiate({ token }, { subscribe: false, forceRefetch: true }));
      if (answer.error || !answer.data) setResult({ state: 'failed', message: errorMessage(answer.error, INVITE_MESSAGES.invalid) });
      else setResult({ state: 'accepted', answer: answer.data });
    })();
  }, [dispatch, token]);

  return (
    <section className="page page--narrow auth-status card" aria-live="polite">
      {result.state === 'processing' && (
        <>
          <h1>Accepting your invitation</h1>
          <p>
            <Spinner /> One moment…
          </p>
        </>
      )}
      {result.state === 'accepted' && (
        <>
          <h1>Invitation accepted</h1>
          <p className="alert alert--success" role="status">
            {result.answer.message || INVITE_MESSAGES.accepted}
          </p>
          <Link className="button button--primary" to={nextStep(result.answer).to}>
            {nextStep(result.answer).label}
          </Link>
        </>
      )}
      {result.state === 'failed' && (
        <>
          <h1>Invitation not accepted</h1>
          <p className="alert" role="alert">
            {result.message}
          </p>
          <Link className="button" to="/home">
            Return Home
          </Link>
        </>
      )}
    </section>
  );
}
