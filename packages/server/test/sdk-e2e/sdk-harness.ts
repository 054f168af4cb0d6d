import type { Role } from '@voice-eval/contract';
import { type ClientOptions, VoiceEval } from '@voice-eval/sdk';
import type { VoiceEvalServerOptions } from '../../src/server.js';
import { createHarness, type Harness, type Tenant } from '../harness.js';

/** The real server over HTTP with SDK clients bound to it. */
export type SdkHarness = Harness & {
  /** A client with the tenant owner's session (access and refresh token). */
  sdk(options?: ClientOptions, tenant?: Tenant): VoiceEval;
  /** A client holding a bearer token of a user with `role` in `tenant`. */
  sdkAs(role: Role, tenant?: Tenant, options?: ClientOptions): Promise<VoiceEval>;
  /** A client using a new organization API key of `tenant`. */
  sdkWithApiKey(tenant?: Tenant, options?: ClientOptions): Promise<VoiceEval>;
  /** A client with no credentials. */
  anonymous(options?: ClientOptions): VoiceEval;
};

/**
 * `createHarness` plus SDK clients. Clients default to `maxRetries: 0` so error statuses the
 * SDK would retry (409, 429, 5xx) surface at once; tests that exercise retries opt back in.
 */
export const createSdkHarness = async (options: VoiceEvalServerOptions = {}): Promise<SdkHarness> => {
  const h = await createHarness(options);
  const base = (extra: ClientOptions = {}): ClientOptions => ({
    baseUrl: h.url,
    maxRetries: 0,
    logLevel: 'off',
    ...extra,
  });
  const sdk = (extra: ClientOptions = {}, tenant: Tenant = h) =>
    new VoiceEval(
      base({ accessToken: tenant.owner.access_token, refreshToken: tenant.owner.refresh_token, ...extra }),
    );
  const sdkAs = async (role: Role, tenant: Tenant = h, extra: ClientOptions = {}) => {
    const { authorization } = await tenant.as(role);
    return new VoiceEval(base({ accessToken: authorization!.replace(/^Bearer /, ''), ...extra }));
  };
  const sdkWithApiKey = async (tenant: Tenant = h, extra: ClientOptions = {}) => {
    const headers = await tenant.apiKey();
    return new VoiceEval(base({ apiKey: headers['x-api-key'], ...extra }));
  };
  const anonymous = (extra: ClientOptions = {}) => new VoiceEval(base(extra));
  return Object.assign(h, { sdk, sdkAs, sdkWithApiKey, anonymous });
};
