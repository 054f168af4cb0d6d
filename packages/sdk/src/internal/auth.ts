import type { Session } from '@voice-eval/contract';
import { ApiError, VoiceEvalError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

/** Tokens of a new session, handed to `onTokens` so callers can persist them. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Access token lifetime in seconds. */
  expiresIn: number;
  /** The full session returned by login or refresh. */
  session: Session;
}

/** Supplies credentials for each request and recovers from a 401 when it can. */
export interface Authenticator {
  /** Headers for the next request; may log in or refresh first. */
  headers(): Promise<Record<string, string>>;
  /**
   * Called after a 401 with the headers that were sent. Resolves true when new credentials are
   * ready and the request should be re-sent once.
   */
  recover(sent: Record<string, string>): Promise<boolean>;
}

/** No credentials: only public routes succeed. */
export const noAuth: Authenticator = {
  headers: async () => ({}),
  recover: async () => false,
};

/** A static organization API key in `X-API-Key`. */
export const apiKeyAuth = (apiKey: string): Authenticator => ({
  headers: async () => ({ 'x-api-key': apiKey }),
  recover: async () => false,
});

export interface SessionAuthOptions {
  accessToken?: string;
  refreshToken?: string;
  email?: string;
  password?: string;
  organizationId?: string;
  onTokens?: (tokens: Tokens) => void | Promise<void>;
  login: (body: { email: string; password: string; organization_id?: string }) => Promise<Session>;
  refresh: (refreshToken: string) => Promise<Session>;
  logger: Logger;
}

/** Renew this long before the access token's known expiry (at most half its lifetime). */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Bearer sessions: logs in lazily with e-mail and password, refreshes on 401 (or just before a
 * known expiry) and falls back to logging in again. Renewals are single-flight: concurrent
 * requests that hit a 401 share one refresh, so a rotating refresh token is used exactly once.
 */
export class SessionAuth implements Authenticator {
  #accessToken: string | undefined;
  #refreshToken: string | undefined;
  /** When to renew before sending: shortly before the access token's known expiry. */
  #renewAt: number | undefined;
  #renewing: Promise<void> | undefined;
  readonly #options: SessionAuthOptions;

  constructor(options: SessionAuthOptions) {
    this.#options = options;
    this.#accessToken = options.accessToken;
    this.#refreshToken = options.refreshToken;
  }

  async headers(): Promise<Record<string, string>> {
    const expiring = this.#renewAt !== undefined && Date.now() >= this.#renewAt;
    if (this.#accessToken === undefined || expiring) {
      await this.#renew().catch((error: unknown) => {
        if (this.#accessToken === undefined) throw error;
      });
    }
    return this.#accessToken === undefined ? {} : { authorization: `Bearer ${this.#accessToken}` };
  }

  async recover(sent: Record<string, string>): Promise<boolean> {
    const current = this.#accessToken === undefined ? undefined : `Bearer ${this.#accessToken}`;
    // Another request renewed the session since this one was sent: just re-send.
    if (current !== undefined && sent.authorization !== current) return true;
    if (this.#refreshToken === undefined && !this.#canLogin()) return false;
    try {
      await this.#renew();
      return true;
    } catch (error) {
      if (error instanceof ApiError) {
        this.#options.logger.warn('session renewal failed', { status: error.status, code: error.code });
        return false;
      }
      throw error;
    }
  }

  #canLogin(): boolean {
    return this.#options.email !== undefined && this.#options.password !== undefined;
  }

  #renew(): Promise<void> {
    this.#renewing ??= this.#doRenew().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #doRenew(): Promise<void> {
    const { email, password, organizationId } = this.#options;
    let session: Session | undefined;
    if (this.#refreshToken !== undefined) {
      try {
        session = await this.#options.refresh(this.#refreshToken);
      } catch (error) {
        if (!(error instanceof ApiError) || !this.#canLogin()) throw error;
        this.#options.logger.info('refresh failed; logging in again', { status: error.status });
      }
    }
    if (session === undefined) {
      if (email === undefined || password === undefined) {
        throw new VoiceEvalError('Cannot renew the session: no refresh token and no e-mail/password.');
      }
      session = await this.#options.login({
        email,
        password,
        ...(organizationId ? { organization_id: organizationId } : {}),
      });
    }
    await this.#adopt(session);
  }

  async #adopt(session: Session): Promise<void> {
    this.#accessToken = session.access_token;
    this.#refreshToken = session.refresh_token;
    const lifetime = session.expires_in * 1000;
    this.#renewAt = Date.now() + lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 2);
    try {
      await this.#options.onTokens?.({
        accessToken: session.access_token,
        refreshToken: session.refresh_token,
        expiresIn: session.expires_in,
        session,
      });
    } catch (error) {
      this.#options.logger.warn('onTokens callback failed', { error: String(error) });
    }
  }
}
