/**
 * The outcome of every provider call: a value with its token usage, or a typed error. Expected
 * failures (a rate limit, a model that cannot hear audio, a reply that is not the asked-for
 * JSON) are values, never exceptions, so workers can record them on rows as they are.
 */

/** Every way a provider call can fail in a known way. */
export const PROVIDER_ERROR_CODES = [
  'provider_error',
  'rate_limited',
  'timeout',
  'cancelled',
  'invalid_provider_response',
  'provider_audio_unsupported',
  'ai_provider_not_configured',
  'budget_exhausted',
] as const;

/** One of {@link PROVIDER_ERROR_CODES}. */
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/**
 * A typed provider failure, shaped like a row error (`{ code, message, provider, model }`; the
 * caller adds `at`). `message` never contains credentials: provider replies are scrubbed first.
 */
export interface ProviderError {
  code: ProviderErrorCode;
  message: string;
  /** The AIProvider's `provider` value (or `default` for the server default), when known. */
  provider: string | null;
  model: string | null;
  /** The HTTP status of the provider's last reply, when there was one. */
  status?: number;
  /** The wait the provider asked for on its last 429, in milliseconds (capped). */
  retry_after_ms?: number;
}

/** Token usage as OpenAI-compatible APIs report it; zeros when the provider reports none. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /**
   * Seconds of audio: billed, when a speech-to-text provider reports duration instead of tokens;
   * synthesised, for text to speech (whose replies report no usage).
   */
  audio_seconds?: number;
}

/** A successful call: the value, the usage it cost, and who answered. */
export interface ProviderSuccess<T> {
  ok: true;
  value: T;
  usage: Usage;
  provider: string;
  model: string | null;
}

/** A failed call. */
export interface ProviderFailure {
  ok: false;
  error: ProviderError;
}

/** The discriminated union every provider method returns. */
export type ProviderResult<T> = ProviderSuccess<T> | ProviderFailure;

/** Usage of a call that consumed no tokens (a model listing, a rejected request). */
export const ZERO_USAGE: Readonly<Usage> = Object.freeze({
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
});

/** Builds a {@link ProviderFailure}. */
export function providerFailure(
  code: ProviderErrorCode,
  message: string,
  context: { provider?: string | null; model?: string | null; status?: number; retry_after_ms?: number } = {},
): ProviderFailure {
  const error: ProviderError = {
    code,
    message,
    provider: context.provider ?? null,
    model: context.model ?? null,
  };
  if (context.status !== undefined) error.status = context.status;
  if (context.retry_after_ms !== undefined) error.retry_after_ms = context.retry_after_ms;
  return { ok: false, error };
}
