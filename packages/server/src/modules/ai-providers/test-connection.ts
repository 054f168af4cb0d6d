import type { AIProviderTestResult } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import type { ProviderError } from '../../providers/index.js';
import * as repo from './repo.js';
import { routingOf, toRecord } from './wire.js';

/** A credential test is one model listing; it must answer well within an HTTP request. */
const TEST_TIMEOUT_MS = 15_000;

type TestError = NonNullable<AIProviderTestResult['error']>;

/** A provider failure as a test error code; the message is the gateway's, already free of secrets. */
const testErrorOf = (error: ProviderError, viaGateway: boolean): TestError => {
  const code = ((): TestError['code'] => {
    switch (error.code) {
      case 'ai_provider_not_configured':
        return viaGateway ? 'gateway_not_configured' : 'endpoint_not_configured';
      case 'timeout':
        return 'timeout';
      case 'rate_limited':
        return 'rate_limited';
      case 'invalid_provider_response':
        return 'invalid_provider_response';
      case 'provider_error':
        if (error.status === 401 || error.status === 403) return 'invalid_credentials';
        return error.status === undefined ? 'endpoint_unreachable' : 'provider_error';
      default:
        return 'provider_error';
    }
  })();
  return { code, message: error.message };
};

/**
 * Tests a credential (active or not) by listing its models through the provider gateway, and
 * records `last_tested_at` whatever the outcome. A failure is a value (`ok: false`), not an error.
 */
export const testAiProvider = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<AIProviderTestResult> => {
  const row = await repo.findProvider(deps.db, ctx.organizationId, id);
  if (!row) throw notFound('AI provider');
  const viaGateway = routingOf(deps, row).effective_routing === 'gateway';
  const started = performance.now();
  const selection = deps.providers.forRecord(toRecord(deps, row, true));
  const listed = selection.ok
    ? await selection.provider.listModels({ timeoutMs: TEST_TIMEOUT_MS })
    : selection;
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  const testedAt = deps.now();
  await repo.touchTested(deps.db, row.id, testedAt);
  const error = listed.ok ? null : testErrorOf(listed.error, viaGateway);
  deps.logger.info(
    { aiProviderId: row.id, provider: row.provider, ok: listed.ok, code: error?.code ?? null },
    'ai_provider:tested',
  );
  return {
    ok: listed.ok,
    models: listed.ok ? listed.value.map((model) => model.id) : [],
    latency_ms: latencyMs,
    error,
    tested_at: testedAt.toISOString(),
  };
};
