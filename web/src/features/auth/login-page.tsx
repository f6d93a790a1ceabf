import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { gatewayApi } from '../../lib/api/gateway-api.generated';
import { errorMessage } from '../../lib/api/error-message';
import { selectAuthStatus } from '../../lib/auth/auth-slice';
import { sessionStarted } from '../../lib/auth/session';
import { trackEvent } from '../../lib/analytics';
import { demoRequested, PRODUCT_DEMO_TITLE } from '../../lib/ui/demo-slice';
import { useWebConfig } from '../../lib/web-config';
import { TextField } from '../../components/text-field';
import { GoogleButton } from './google-button';
import './auth.css';

export const LOGIN_REQUIRED = 'Email and password are required.';
export const SIGNUP_REQUIRED = 'First name, last name, email and password are required.';
const FEATURES = [
  { title: 'Transcription', text: 'Every call and meeting transcribed, with each speaker labelled.' },
  { title: 'Analytics', text: 'Scores against your team’s weighted criteria, trends by team and person.' },
  { title: 'AI insights', text: 'Each verdict explained with the moments in the conversation behind it.' },
  { title: 'Reports', text: 'Summaries, leaderboards and target-based recommendations for managers.' },
];

/** /login: sign in (e-mail and password, or Google) or, with ?mode=signup, create an account. */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const status = useAppSelector(selectAuthStatus);
  const config = useWebConfig();
  const [params, setParams] = useSearchParams();
  const mode = params.get('mode') === 'signup' ? 'signup' : 'login';
  const [form, setForm] = useState({ firstName: '', lastName: '', email: params.get('email') ?? '', password: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (status === 'authenticated') return <Navigate to="/dashboard" replace />;

  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const switchTo = (next: 'login' | 'signup') => {
    setProblem(null);
    setParams(next === 'signup' ? { mode: 'signup' } : {}, { replace: true });
  };

  const signIn = async () => {
    const email = form.email.trim();
    if (!email || !form.password) return setProblem(LOGIN_REQUIRED);
    const result = await dispatch(gatewayApi.endpoints.login.initiate({ body: { email, password: form.password } }));
    if (result.error) return setProblem(errorMessage(result.error, 'Sign-in failed. Please try again.'));
    dispatch(sessionStarted(result.data));
    trackEvent('login', result.data.company.id);
    navigate('/dashboard');
  };

  const signUp = async () => {
    const body = { firstName: form.firstName.trim(), lastName: form.lastName.trim(), email: form.email.trim(), password: form.password };
    if (!body.firstName || !body.lastName || !body.email || !body.password) return setProblem(SIGNUP_REQUIRED);
    const result = await dispatch(gatewayApi.endpoints.signup.initiate({ body }));
    if (result.error) return setProblem(errorMessage(result.error, 'Sign-up failed. Please try again.'));
    trackEvent('signup', null);
    navigate(`/auth/email-sent?email=${encodeURIComponent(body.email)}`);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setBusy(true);
    try {
      await (mode === 'signup' ? signUp() : signIn());
    } finally {
      setBusy(false);
    }
  };

  const onGoogleCredential = async (idToken: string) => {
    setProblem(null);
    const result = await dispatch(gatewayApi.endpoints.googleSignup.initiate({ body: { idToken } }));
    if (result.error) return setProblem(errorMessage(result.error, 'Google sign-in failed. Please try again.'));
    dispatch(sessionStarted(result.data));
    trackEvent(result.data.created ? 'signup' : 'login', result.data.company.id);
    navigate('/dashboard');
  };

  return (
    <div className="auth-page">
      <section className="auth-page__marketing" aria-labelledby="login-marketing">
        <h2 id="login-marketing">Every conversation, understood</h2>
        <ul className="auth-page__features">
          {FEATURES.map((feature) => (
            <li key={feature.title}>
              <strong>{feature.title}</strong>
              <span>{feature.text}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="auth-page__panel card" aria-labelledby="login-title">
        <h1 id="login-title">{mode === 'signup' ? 'Create your account' : 'Sign in to Parlance'}</h1>
        {config?.googleClientId ? (
          <>
            <GoogleButton clientId={config.googleClientId} onCredential={onGoogleCredential} onError={setProblem} />
            <p className="auth-page__divider">
              <span>or with your e-mail</span>
            </p>
          </>
        ) : null}
        <form onSubmit={onSubmit} noValidate>
          {mode === 'signup' && (
            <div className="auth-page__names">
              <TextField id="signup-first-name" label="First name" autoComplete="given-name" {...field('firstName')} />
              <TextField id="signup-last-name" label="Last name" autoComplete="family-name" {...field('lastName')} />
            </div>
          )}
          <TextField id="login-email" label="Email" type="email" autoComplete="email" {...field('email')} />
          <TextField
            id="login-password"
            label="Password"
            type="password"
            autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
            hint={mode === 'signup' ? 'At least 10 characters (under 16, mix two kinds: letters, digits or symbols), not containing your name or e-mail.' : undefined}
            {...field('password')}
          />
          {problem && (
            <p className="alert" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="button button--primary auth-page__submit" disabled={busy}>
            {mode === 'signup' ? 'Sign Up' : 'Sign In'}
          </button>
        </form>
        <p className="auth-page__switch">
          {mode === 'signup' ? (
            <>
              Already have an account?{' '}
              <button type="button" className="button button--link" onClick={() => switchTo('login')}>
                Sign in
              </button>
            </>
          ) : (
            <>
              New to Parlance?{' '}
              <button type="button" className="button button--link" onClick={() => switchTo('signup')}>
                Create an account
              </button>
            </>
          )}
        </p>
        <p className="auth-page__switch">
          <button type="button" className="button button--link" onClick={() => dispatch(demoRequested(PRODUCT_DEMO_TITLE))}>
            Request a demo to start
          </button>
        </p>
        <p className="auth-page__legal">
          By continuing you agree to the <Link to="/terms">terms</Link> and the <Link to="/privacy">privacy policy</Link>.
        </p>
      </section>
    </div>
  );
}
