import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthenticationError, type Session, VoiceEval } from '@voice-eval/sdk';

/** The demo user's e-mail (a reserved domain: nothing is ever sent to it). */
export const DEMO_EMAIL = 'demo@example.com';

/** The demo login, kept beside the demo's database so every start prints the same one. */
export type DemoLogin = { email: string; password: string };

/** The login, and whether it was just made (so its user does not exist yet). */
type StoredLogin = { login: DemoLogin; created: boolean };

const LOGIN_FILE = 'demo-login.json';

/**
 * The demo login in `dataDir`, made on first use with a random password (the server listens on
 * every interface, so the password is not a well-known one).
 */
export const demoLoginOf = (dataDir: string): StoredLogin => {
  const path = join(dataDir, LOGIN_FILE);
  if (existsSync(path)) return { login: JSON.parse(readFileSync(path, 'utf8')) as DemoLogin, created: false };
  mkdirSync(dataDir, { recursive: true });
  const login = { email: DEMO_EMAIL, password: randomBytes(12).toString('base64url') };
  writeFileSync(path, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  return { login, created: true };
};

/**
 * A client with the demo user's session: a sign-up for a new login, which makes the "Riverside
 * Clinic (demo)" organization; else a login, and a sign-up if the user is gone (the database was
 * removed but not the login file).
 */
export const signInDemoUser = async (
  baseUrl: string,
  { login, created }: StoredLogin,
): Promise<VoiceEval> => {
  const anonymous = new VoiceEval({ baseUrl, logLevel: 'off' });
  const signup = () =>
    anonymous.auth.signup({ ...login, name: 'Demo User', organization_name: 'Riverside Clinic (demo)' });
  let session: Session;
  if (created) session = await signup();
  else {
    try {
      session = await anonymous.auth.login(login);
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      session = await signup();
    }
  }
  return new VoiceEval({
    baseUrl,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    logLevel: 'off',
  });
};
