import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { ApiError } from '@voice-eval/sdk';
import { type FormEvent, useState } from 'react';
import { useSession } from '../components/session-context.tsx';

const route = getRouteApi('/login');

type Mode = 'password' | 'signup' | 'api-key';
const TITLES: Record<Mode, string> = {
  password: 'Sign in',
  signup: 'Create an account',
  'api-key': 'Sign in with an API key',
};

/** E-mail and password, a new account (when the server allows sign-up), or an operator's API key. */
export const LoginPage = () => {
  const session = useSession();
  const router = useRouter();
  const { redirect } = route.useSearch();
  const [mode, setMode] = useState<Mode>('password');
  const config = useQuery({ queryKey: ['auth-config'], queryFn: () => session.authConfig() });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const email = String(form.get('email'));
      const password = String(form.get('password'));
      if (mode === 'password') await session.login(email, password);
      else if (mode === 'signup')
        await session.signup(email, password, String(form.get('organization')).trim() || undefined);
      else await session.signInWithApiKey(String(form.get('api_key')).trim());
      await router.navigate({ href: redirect ?? '/runs', replace: true });
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? caught.status === 401 && mode === 'password'
            ? 'That e-mail and password do not match an account.'
            : [caught.detail ?? caught.message, ...caught.errors.map((e) => e.message)].join(' ')
          : caught instanceof Error
            ? caught.message
            : String(caught),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login" id="main">
      <h1>voice-eval</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby={error ? 'login-error' : undefined}>
        <h2>{TITLES[mode]}</h2>
        {mode !== 'api-key' ? (
          <>
            <label>
              E-mail
              <input name="email" type="email" autoComplete="username" required />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                minLength={mode === 'signup' ? 8 : undefined}
                required
              />
            </label>
            {mode === 'signup' && (
              <label>
                Organization <span className="muted">(optional)</span>
                <input name="organization" type="text" autoComplete="organization" />
              </label>
            )}
          </>
        ) : (
          <label>
            Organization API key
            <input name="api_key" type="password" autoComplete="off" required />
          </label>
        )}
        {error && (
          <p id="login-error" className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'One moment…' : mode === 'signup' ? 'Create the account' : 'Sign in'}
        </button>
        {(['password', 'signup', 'api-key'] as const)
          .filter((other) => other !== mode && (other !== 'signup' || config.data?.signup_enabled))
          .map((other) => (
            <button
              key={other}
              type="button"
              className="link"
              onClick={() => {
                setError(undefined);
                setMode(other);
              }}
            >
              {other === 'password'
                ? 'Sign in with e-mail and password'
                : other === 'signup'
                  ? 'Create an account'
                  : 'Use an API key instead'}
            </button>
          ))}
      </form>
    </main>
  );
};
