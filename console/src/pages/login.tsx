import { getRouteApi, useRouter } from '@tanstack/react-router';
import { ApiError } from '@voice-eval/sdk';
import { type FormEvent, useState } from 'react';
import { useSession } from '../components/session-context.tsx';

const route = getRouteApi('/login');

/** E-mail and password, or (for operators) an organization API key. */
export const LoginPage = () => {
  const session = useSession();
  const router = useRouter();
  const { redirect } = route.useSearch();
  const [mode, setMode] = useState<'password' | 'api-key'>('password');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      if (mode === 'password') await session.login(String(form.get('email')), String(form.get('password')));
      else await session.signInWithApiKey(String(form.get('api_key')).trim());
      await router.navigate({ href: redirect ?? '/runs', replace: true });
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? caught.status === 401
            ? 'That e-mail and password do not match an account.'
            : (caught.detail ?? caught.message)
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
        <h2>{mode === 'password' ? 'Sign in' : 'Sign in with an API key'}</h2>
        {mode === 'password' ? (
          <>
            <label>
              E-mail
              <input name="email" type="email" autoComplete="username" required />
            </label>
            <label>
              Password
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
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
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setError(undefined);
            setMode(mode === 'password' ? 'api-key' : 'password');
          }}
        >
          {mode === 'password' ? 'Use an API key instead' : 'Use e-mail and password instead'}
        </button>
      </form>
    </main>
  );
};
