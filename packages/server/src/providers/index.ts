/**
 * AI providers: one interface ({@link AiProvider}) for structured-output chat (optionally with
 * audio), speech to text and text to speech, an OpenAI-compatible adapter, a capability registry,
 * routing from AIProvider rows, and a gateway that picks an organization's provider or the server
 * default. Every call returns a {@link ProviderResult}; expected failures are values.
 */

export type { RetryPolicy } from '../net/retry.js';
export { DEFAULT_RETRY_POLICY, parseRetryAfter } from '../net/retry.js';
export { CallBudget } from './call-budget.js';
export type { Capability, CapabilityRegistry } from './capabilities.js';
export { createCapabilityRegistry, parseCapabilityEntries } from './capabilities.js';
export type { DefaultEndpointConfig, DefaultProviderConfig } from './default-config.js';
export { readDefaultProviderConfig } from './default-config.js';
export type {
  ModelCallEvent,
  ModelCallObserver,
  ProviderGateway,
  ProviderGatewayOptions,
  ProviderPurpose,
  ProviderSelected,
  ProviderSelection,
} from './gateway.js';
export { createProviderGateway } from './gateway.js';
export type { ProviderLogFn, ProviderLogger } from './logger.js';
export { NOOP_LOGGER } from './logger.js';
export type { OpenAiCompatibleProviderOptions } from './openai-compatible-provider.js';
export { DEFAULT_TIMEOUT_MS, OpenAiCompatibleProvider } from './openai-compatible-provider.js';
export * from './prompts/index.js';
export type {
  ProviderError,
  ProviderErrorCode,
  ProviderFailure,
  ProviderResult,
  ProviderSuccess,
  Usage,
} from './provider-result.js';
export { PROVIDER_ERROR_CODES, providerFailure, ZERO_USAGE } from './provider-result.js';
export type { AiProviderRecord, GatewaySecretStatus, ResolvedRouting, RoutingOptions } from './routing.js';
export {
  DEFAULT_GATEWAY_INTERFACE,
  ROUTING_MODES,
  resolveRouting,
  SUPPORTED_GATEWAY_INTERFACES,
} from './routing.js';
export { PCM_SAMPLE_RATE } from './speech.js';
export type {
  AiProvider,
  AudioFormat,
  AudioInput,
  CallOptions,
  ChatOutput,
  ChatRequest,
  ListedModel,
  PromptRef,
  SpeechFormat,
  SpeechOutput,
  SpeechRequest,
  TranscriptionOutput,
  TranscriptionRequest,
  TranscriptionSegment,
  UsageEvent,
  UsageHook,
} from './types.js';
export { AUDIO_FORMATS, SPEECH_FORMATS } from './types.js';
