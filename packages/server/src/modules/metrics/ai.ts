import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import type { AiProvider, ProviderError } from '../../providers/index.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { violation } from './rules.js';

/**
 * A provider failure as an HTTP error: no usable provider is 422 `ai_provider_not_configured`,
 * a provider rate limit 429 with `Retry-After`, and any other failure (timeout, provider error,
 * a reply that is not the asked-for JSON) a 502 `provider_error` naming the failure, no internals.
 */
export const providerFailureError = (error: ProviderError): ApiError => {
  if (error.code === 'ai_provider_not_configured') {
    return new ApiError('ai_provider_not_configured', `No usable AI provider: ${error.message}.`);
  }
  if (error.code === 'rate_limited') {
    const seconds = Math.max(1, Math.ceil((error.retry_after_ms ?? 1000) / 1000));
    return new ApiError('rate_limited', 'The AI provider is rate limiting requests; retry later.', {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  return new ApiError(
    'provider_error',
    `The AI provider call failed (${error.code}); retry, or choose another provider.`,
  );
};

/**
 * The chat provider for a request: the organization's credential `aiProviderId` when given (an
 * active one, else 422), otherwise the gateway's choice among the organization's active
 * credentials, falling back to the server default provider.
 */
export const chatProviderFor = async (
  deps: Deps,
  ctx: RequestContext,
  aiProviderId: string | undefined,
): Promise<AiProvider> => {
  const records = await listProviderRecords(deps, ctx.organizationId);
  let selection: ReturnType<Deps['providers']['forRecord']>;
  if (aiProviderId) {
    const record = records.find((r) => r.id === aiProviderId);
    if (!record) throw violation('ai_provider_id', 'No active AI provider of this organization has this id');
    selection = deps.providers.forRecord(record);
  } else {
    selection = deps.providers.forOrganization(records, { purpose: 'chat' });
  }
  if (!selection.ok) throw providerFailureError(selection.error);
  return selection.provider;
};

/** Logs a failed provider call of a metrics feature (never the prompt or the reply). */
export const logProviderFailure = (deps: Deps, ctx: RequestContext, what: string, error: ProviderError) =>
  deps.logger.warn(
    { code: error.code, provider: error.provider, model: error.model, requestId: ctx.requestId },
    `metrics:${what}_failed`,
  );

/**
 * The failure path the metric model calls share: logs the provider failure of `what` (`generate`,
 * `enrich`) and throws it as the API error.
 */
export const failWithProvider =
  (deps: Deps, ctx: RequestContext, what: string) =>
  (error: ProviderError): never => {
    logProviderFailure(deps, ctx, what, error);
    throw providerFailureError(error);
  };

/** A reply that parsed but says nothing usable, as a provider failure of its provider and model. */
export const emptyReply = (
  result: { provider: string; model: string | null },
  message: string,
): ProviderError => ({
  code: 'invalid_provider_response',
  message,
  provider: result.provider,
  model: result.model,
});
