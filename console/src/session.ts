import { ApiError, type Session, VoiceEval } from '@voice-eval/sdk';

/** The Web Lock every tab takes to refresh: one refresh at a time across tabs. */
const REFRESH_LOCK = 'voice-eval-console-refresh';
/** An operator's API key lives for the tab only (sessionStorage), never beside other tabs' state. */
const API_KEY_ITEM = 'voice-eval-console-api-key';
const WORKSPACE_ITEM = 'voice-eval-console-workspace';

export type SessionState = 'unknown' | 'signed-in' | 'signed-out';

/**
 * The console's credentials. A person logs in with e-mail and password: the access token stays in
 * memory and the refresh token in the HttpOnly cookie the server sets on the auth routes, so a
 * reload or a second tab starts by refreshing from the cookie. Refresh tokens rotate and a reused
 * one revokes its family, so every refresh, in any tab, runs under one Web Lock: two tabs never
 * send the same cookie. An operator may use an organization API key instead.
 *
 * Every request goes through {@link ConsoleSession.client}, whose `fetch` adds the credentials
 * and, on a 401, refreshes once and re-sends.
 */
export class ConsoleSession {
  /** Every request of the console's organization, in the chosen workspace. */
  #root: VoiceEval;
  #client: VoiceEval;
  /** For the auth routes: login, refresh and logout carry no credentials of their own. */
  readonly #public: VoiceEval;
  #accessToken: string | undefined;
  #apiKey: string | undefined;
  #state: SessionState = 'unknown';
  #renewing: Promise<boolean> | undefined;
  #started: Promise<boolean> | undefined;
  readonly #listeners = new Set<() => void>();

  constructor(readonly apiBase: string) {
    this.#public = new VoiceEval({ baseUrl: apiBase, maxRetries: 0 });
    this.#root = new VoiceEval({ baseUrl: apiBase, fetch: (input, init) => this.#fetch(input, init) });
    const workspaceId = localStorage.getItem(WORKSPACE_ITEM);
    this.#client = workspaceId ? this.#root.withWorkspace(workspaceId) : this.#root;
    this.#apiKey = sessionStorage.getItem(API_KEY_ITEM) ?? undefined;
  }

  get client(): VoiceEval {
    return this.#client;
  }

  get state(): SessionState {
    return this.#state;
  }

  get mode(): 'password' | 'api-key' {
    return this.#apiKey === undefined ? 'password' : 'api-key';
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Resolves once whether the tab has a session is known: an API key, or a refresh from the cookie. */
  start(): Promise<boolean> {
    this.#started ??= (async () => {
      if (this.#apiKey !== undefined) return this.#check();
      return this.#renew(undefined);
    })();
    return this.#started;
  }

  async login(email: string, password: string): Promise<void> {
    const session = await this.#public.auth.login({ email, password });
    this.#apiKey = undefined;
    sessionStorage.removeItem(API_KEY_ITEM);
    this.#adopt(session);
  }

  /** A new account and its organization (when the server allows sign-up); signs in as it. */
  async signup(email: string, password: string, organizationName: string | undefined): Promise<void> {
    const session = await this.#public.auth.signup({
      email,
      password,
      ...(organizationName ? { organization_name: organizationName } : {}),
    });
    this.#apiKey = undefined;
    sessionStorage.removeItem(API_KEY_ITEM);
    this.#adopt(session);
  }

  /** What the login page may offer: sign-up, password login. */
  authConfig() {
    return this.#public.auth.config();
  }

  /** Operators: an organization API key, checked with `GET /auth/me` before it is kept. */
  async signInWithApiKey(apiKey: string): Promise<void> {
    this.#apiKey = apiKey;
    this.#accessToken = undefined;
    if (!(await this.#check())) {
      this.#apiKey = undefined;
      throw new Error('The API key was not accepted.');
    }
    sessionStorage.setItem(API_KEY_ITEM, apiKey);
  }

  async switchOrganization(organizationId: string): Promise<void> {
    this.#adopt(await this.client.auth.switchOrg({ organization_id: organizationId }));
    this.setWorkspace(undefined);
  }

  /** The workspace requests act in (`undefined`: the organization's default); kept per browser. */
  setWorkspace(workspaceId: string | undefined): void {
    if (workspaceId === undefined) localStorage.removeItem(WORKSPACE_ITEM);
    else localStorage.setItem(WORKSPACE_ITEM, workspaceId);
    this.#client = workspaceId === undefined ? this.#root : this.#root.withWorkspace(workspaceId);
    this.#emit();
  }

  get workspaceId(): string | undefined {
    return this.client.workspaceId;
  }

  async logout(): Promise<void> {
    if (this.#apiKey === undefined) {
      // the cookie carries the refresh token; the server revokes its family and clears it
      await this.client.auth.logout({}).catch(() => undefined);
    }
    this.#apiKey = undefined;
    sessionStorage.removeItem(API_KEY_ITEM);
    this.#accessToken = undefined;
    this.#set('signed-out');
  }

  async #check(): Promise<boolean> {
    try {
      await this.client.auth.me();
      this.#set('signed-in');
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.#set('signed-out');
        return false;
      }
      throw error;
    }
  }

  /**
   * Refreshes from the cookie unless the access token changed since `stale` was sent (another
   * request of this tab renewed it meanwhile). Single-flight in the tab, and across tabs under the
   * Web Lock, so a rotated refresh token is never sent twice.
   */
  #renew(stale: string | undefined): Promise<boolean> {
    if (this.#accessToken !== stale) return Promise.resolve(true);
    this.#renewing ??= withLock(async () => {
      try {
        this.#adopt(await this.#public.auth.refresh({}));
        return true;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
          this.#accessToken = undefined;
          this.#set('signed-out');
          return false;
        }
        throw error;
      }
    }).finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  #adopt(session: Session): void {
    this.#accessToken = session.access_token;
    this.#set('signed-in');
  }

  #set(state: SessionState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }

  #authorise(request: Request): Request {
    if (this.#apiKey !== undefined) request.headers.set('x-api-key', this.#apiKey);
    else if (this.#accessToken !== undefined)
      request.headers.set('authorization', `Bearer ${this.#accessToken}`);
    return request;
  }

  async #fetch(input: Request | URL | string, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const sent = this.#accessToken;
    const response = await fetch(this.#authorise(request.clone()));
    if (response.status !== 401 || this.#apiKey !== undefined) {
      if (response.status === 401) this.#set('signed-out');
      return response;
    }
    if (!(await this.#renew(sent))) return response;
    return fetch(this.#authorise(request));
  }
}

/** Runs `task` holding the tabs' refresh lock (where the browser has Web Locks). */
const withLock = <T>(task: () => Promise<T>): Promise<T> =>
  typeof navigator !== 'undefined' && 'locks' in navigator
    ? (navigator.locks.request(REFRESH_LOCK, task) as Promise<T>)
    : task();
