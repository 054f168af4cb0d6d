import type { IntegrationTestResult } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { type SafeFetchResult, safeFetch } from '../../net/safe-fetch.js';
import * as repo from './repo.js';
import { openApiKey, openSecret } from './service.js';

type Request = { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
type Failure = NonNullable<IntegrationTestResult['error']>;

/** The one authenticated list call each platform is tested with; a failure when it has none. */
const requestOf = (
  deps: Deps,
  platform: string,
  secret: string,
  publicKey: string | null,
  apiKey: string | null,
): Request | Failure => {
  const bearer = { authorization: `Bearer ${secret}` };
  switch (platform) {
    case 'vapi':
      return { method: 'GET', url: `${deps.config.vapiApiUrl}/call?limit=1`, headers: bearer };
    case 'retell':
      return {
        method: 'POST',
        url: `${deps.config.retellApiUrl}/v3/list-calls`,
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 1 }),
      };
    case 'twilio':
      if (!publicKey)
        return { code: 'not_testable', message: 'Set the Account SID as the public_key first.' };
      return {
        method: 'GET',
        url: `${deps.config.twilioApiUrl}/2010-04-01/Accounts/${encodeURIComponent(publicKey)}.json`,
        headers: { authorization: `Basic ${Buffer.from(`${publicKey}:${secret}`).toString('base64')}` },
      };
    case 'elevenlabs':
      if (!apiKey)
        return {
          code: 'not_testable',
          message:
            "The webhook's signing secret does not open ElevenLabs' API; set the API key (api_key) to test it.",
        };
      return {
        method: 'GET',
        url: `${deps.config.elevenlabsApiUrl}/v1/convai/conversations?page_size=1`,
        headers: { 'xi-api-key': apiKey },
      };
    default:
      return { code: 'not_testable', message: `voice-eval has no test for ${platform} integrations.` };
  }
};

/**
 * Tests an integration's credentials with one authenticated list call to the platform's API,
 * through the SSRF-safe fetch (no redirects). 401 and 403 are `unauthorized`; any other answer
 * than 2xx is `platform_error`; no answer is `unreachable`. A success sets `last_tested_at`.
 */
export const testIntegration = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<IntegrationTestResult> => {
  const row = await repo.findIntegration(deps.db, ctx.organizationId, id);
  if (!row) throw notFound('Integration');
  const request = requestOf(deps, row.platform, openSecret(deps, row), row.public_key, openApiKey(deps, row));
  const now = deps.now();
  if (!('url' in request)) return { ok: false, latency_ms: 0, error: request, tested_at: now.toISOString() };
  const started = performance.now();
  const answer = await safeFetch(request.url, {
    policy: createAddressPolicy(deps.config.fetchAllowlist),
    redirect: 'refuse',
    maxBytes: 1024 * 1024,
    timeoutMs: Math.min(deps.config.fetchTimeoutMs, 10_000),
    method: request.method,
    headers: { accept: 'application/json', ...request.headers },
    body: request.body,
    truncate: true,
  });
  const latency = Math.round(performance.now() - started);
  if (answer.ok) {
    await repo.updateIntegration(deps.db, ctx.organizationId, id, { last_tested_at: now });
    return { ok: true, latency_ms: latency, error: null, tested_at: now.toISOString() };
  }
  return {
    ok: false,
    latency_ms: latency,
    error: apiFailure(row.platform, answer),
    tested_at: now.toISOString(),
  };
};

/**
 * Why a call to a platform's API failed: 401 and 403 are `unauthorized`, any other answer than 2xx
 * is `platform_error`, no answer is `unreachable`.
 */
export const apiFailure = (
  platform: string,
  answer: Extract<SafeFetchResult, { ok: false }>,
): { code: 'unauthorized' | 'platform_error' | 'unreachable'; message: string } => {
  const status = answer.status ?? 0;
  if (status === 401 || status === 403)
    return { code: 'unauthorized', message: `${platform} refused the credentials (${status}).` };
  return answer.code === 'http_error'
    ? { code: 'platform_error', message: `${platform} answered ${status}.` }
    : { code: 'unreachable', message: answer.message };
};
