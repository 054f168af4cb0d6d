import type { AddressPolicy } from '../net/address-policy.js';
import { createGuardedFetch } from '../net/guarded-fetch.js';
import type { RetryPolicy } from '../net/retry.js';
import { type CapabilityRegistry, createCapabilityRegistry, parseCapabilityEntries } from './capabilities.js';
import type { DefaultEndpointConfig, DefaultProviderConfig } from './default-config.js';
import { NOOP_LOGGER, type ProviderLogger } from './logger.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';
import {
  type ProviderErrorCode,
  type ProviderFailure,
  type ProviderResult,
  providerFailure,
} from './provider-result.js';
import {
  type AiProviderRecord,
  type ResolvedRouting,
  resolveRouting,
  SUPPORTED_GATEWAY_INTERFACES,
} from './routing.js';
import type { AiProvider, UsageEvent, UsageHook } from './types.js';

/** One finished model call, as {@link ProviderGatewayOptions.observe} receives it. */
export interface ModelCallEvent {
  /** The AIProvider's `provider` value, or `default` for the server default. */
  provider: string;
  kind: 'chat' | 'transcription' | 'speech' | 'embeddings' | 'models';
  /** The error code when the call failed; null when it succeeded. */
  error: ProviderErrorCode | null;
  /** From the call to its result, retries included. */
  seconds: number;
}

/** Receives every model call made through the gateway (metrics); must not throw. */
export type ModelCallObserver = (event: ModelCallEvent) => void;

/** Options of {@link createProviderGateway}. */
export interface ProviderGatewayOptions {
  /** The server default provider, used when an organization has no active AIProvider row. */
  defaults?: DefaultProviderConfig | null;
  logger?: ProviderLogger;
  /** @default globalThis.fetch, resolved at call time */
  fetch?: typeof fetch;
  /** Where gateway secrets are read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Which env vars rows may name as gateway secrets. @default names starting with `VOICE_EVAL_GATEWAY_` */
  isSecretEnvAllowed?: (name: string) => boolean;
  /**
   * Refuses organization endpoints the server must not call (private networks in a SaaS).
   * @default every URL allowed
   */
  isUrlAllowed?: (url: URL) => boolean;
  /**
   * The address policy organization endpoints (`endpoint_url`, `gateway_base_url`) are called
   * under, read on every call: each request goes through the guarded fetch (the connected
   * address is the checked one, redirects are refused), so a stored key never reaches a refused
   * address. The server default provider, configured by the operator, is not subject to it.
   * @default none: organization endpoints are called with `fetch`
   */
  addressPolicy?: () => AddressPolicy;
  /** Caps each HTTP attempt, in milliseconds. @default 60000 */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Receives the usage of every call made through the gateway. */
  onUsage?: UsageHook;
  /** Receives every chat, transcription, speech, embeddings and model-listing call: its outcome and duration. */
  observe?: ModelCallObserver;
  /** Receives the usage of every call, like `onUsage`, but synchronously and never failing the call (metrics). */
  observeUsage?: (event: UsageEvent) => void;
}

/**
 * What a provider is picked for: the server default has separate LLM, speech-to-text and
 * text-to-speech endpoints; an organization's row serves all three.
 */
export type ProviderPurpose = 'chat' | 'stt' | 'tts';

/** A usable provider and where it came from. */
export interface ProviderSelected {
  ok: true;
  provider: AiProvider;
  source: 'organization' | 'server_default';
  /** The AIProvider row's id, when the provider came from one that has it. */
  record_id: string | null;
}

/** The provider to use, or `ai_provider_not_configured`. */
export type ProviderSelection = ProviderSelected | ProviderFailure;

/** Picks and builds providers for organizations. */
export interface ProviderGateway {
  /**
   * The provider for an organization's AIProvider rows: among active rows (of `provider` when
   * given) the default one, else the first; with none, the server default; else the typed
   * error `ai_provider_not_configured`.
   */
  forOrganization(
    records: readonly AiProviderRecord[],
    options?: { provider?: string | null; purpose?: ProviderPurpose },
  ): ProviderSelection;
  /** The provider of one row, active or not (for the "test provider" action). */
  forRecord(record: AiProviderRecord): ProviderSelection;
  /**
   * The row's routing as this gateway resolves it (its environment and secret allow-list): the
   * source of `effective_routing`, `effective_gateway_interface` and `has_gateway_auth_secret`.
   */
  routingOf(record: AiProviderRecord): ResolvedRouting;
  /** The registry under the server config's capability entries. */
  readonly capabilities: CapabilityRegistry;
}

const PURPOSE_NAMES: Readonly<Record<ProviderPurpose, string>> = {
  chat: 'chat',
  stt: 'speech to text',
  tts: 'text to speech',
};

const notConfigured = (message: string, provider: string | null = null) =>
  providerFailure('ai_provider_not_configured', message, { provider });

function pickRecord(records: readonly AiProviderRecord[], provider: string | null | undefined) {
  const wanted = provider?.trim().toLowerCase();
  const candidates = records.filter(
    (r) => r.is_active && (!wanted || r.provider.trim().toLowerCase() === wanted),
  );
  return candidates.find((r) => r.is_default) ?? candidates[0] ?? null;
}

/**
 * Default models from `gateway_model` and `enabled_models`: the first STT-capable one for STT, the
 * first TTS-capable one for TTS, the first other one for chat. Names are sent exactly as
 * configured, through a gateway too: a LiteLLM proxy routes by the `model_name` of its own config
 * (often an alias), so adding a `provider/` prefix would break it.
 */
function defaultModels(record: AiProviderRecord, registry: CapabilityRegistry) {
  const entries = record.enabled_models ?? [];
  const plain = entries
    .filter((entry) => !/^-?(audio|stt|tts|embeddings):/i.test(entry.trim()))
    .map((entry) => entry.trim());
  const { grant } = parseCapabilityEntries(entries);
  const named = (models: string[]) => [...plain, ...models.filter((model) => !model.endsWith('*'))];
  const sttModel = named(grant.stt).find((model) => registry.doesSpeechToText(record.provider, model));
  const ttsModel = named(grant.tts).find((model) => registry.doesTextToSpeech(record.provider, model));
  const chatModel = plain.find(
    (model) =>
      !registry.doesSpeechToText(record.provider, model) &&
      !registry.doesTextToSpeech(record.provider, model),
  );
  // `embeddings:<model>` names the embeddings model (clustering of report rows)
  const embeddingsModel = entries
    .map((entry) => /^embeddings:(.+)$/i.exec(entry.trim())?.[1]?.trim())
    .find((model) => model);
  return {
    embeddingsModel: embeddingsModel ?? null,
    chatModel: record.gateway_model?.trim() || chatModel || null,
    sttModel: sttModel ?? null,
    ttsModel: ttsModel ?? null,
  };
}

function routingProblem(routing: ResolvedRouting, options: ProviderGatewayOptions): string | null {
  if (!(SUPPORTED_GATEWAY_INTERFACES as readonly string[]).includes(routing.effective_gateway_interface)) {
    return `gateway interface ${routing.effective_gateway_interface} is not supported`;
  }
  if (routing.gateway_auth_secret_status === 'missing')
    return 'the gateway secret environment variable is not set';
  if (routing.gateway_auth_secret_status === 'not_allowed')
    return 'the gateway secret environment variable is not allowed';
  if (!routing.base_url)
    return `no ${routing.effective_routing === 'gateway' ? 'gateway_base_url' : 'endpoint_url'} is set`;
  let url: URL;
  try {
    url = new URL(routing.base_url);
  } catch {
    return 'the provider URL is not a valid URL';
  }
  if (!/^https?:$/.test(url.protocol)) return 'the provider URL must be http or https';
  if (options.isUrlAllowed && !options.isUrlAllowed(url))
    return 'the provider URL is not allowed by the server';
  return null;
}

/** The provider with every call reported to `observe`: kind, outcome and duration. */
function observed(provider: AiProvider, observe: ModelCallObserver): AiProvider {
  const timed = async <T>(kind: ModelCallEvent['kind'], call: () => Promise<ProviderResult<T>>) => {
    const started = performance.now();
    const result = await call();
    observe({
      provider: provider.name,
      kind,
      error: result.ok ? null : result.error.code,
      seconds: (performance.now() - started) / 1000,
    });
    return result;
  };
  return {
    name: provider.name,
    chat: (request, options) => timed('chat', () => provider.chat(request, options)),
    transcribe: (request, options) => timed('transcription', () => provider.transcribe(request, options)),
    speak: (request, options) => timed('speech', () => provider.speak(request, options)),
    listModels: (options) => timed('models', () => provider.listModels(options)),
    embeddingsModel: provider.embeddingsModel,
    ...(provider.embed && {
      embed: (request, options) => timed('embeddings', () => provider.embed!(request, options)),
    }),
  };
}

/** The gateway's usage hook: `onUsage`, after `observeUsage` (which cannot fail the call). */
function usageHook(options: ProviderGatewayOptions): UsageHook | undefined {
  const { onUsage, observeUsage } = options;
  if (!observeUsage) return onUsage;
  return (event) => {
    observeUsage(event);
    return onUsage?.(event);
  };
}

/** Creates the gateway the server reaches providers through (`Deps.providers`). */
export function createProviderGateway(options: ProviderGatewayOptions = {}): ProviderGateway {
  const logger = options.logger ?? NOOP_LOGGER;
  const capabilities = createCapabilityRegistry(options.defaults?.capabilities ?? []);
  const shared = {
    logger,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    onUsage: usageHook(options),
  };
  const withObserver = (provider: AiProvider): AiProvider =>
    options.observe ? observed(provider, options.observe) : provider;

  const organizationFetch = options.addressPolicy
    ? createGuardedFetch(options.addressPolicy, { redirect: 'refuse' })
    : options.fetch;

  const routingOf = (record: AiProviderRecord): ResolvedRouting =>
    resolveRouting(record, { env: options.env, isSecretEnvAllowed: options.isSecretEnvAllowed });

  const forRecord = (record: AiProviderRecord): ProviderSelection => {
    const routing = routingOf(record);
    const problem = routingProblem(routing, options);
    if (problem || !routing.base_url) return notConfigured(problem ?? 'no provider URL', record.provider);
    const registry = capabilities.withOverrides(record.enabled_models);
    const provider = new OpenAiCompatibleProvider({
      ...shared,
      fetch: organizationFetch,
      ...defaultModels(record, registry),
      name: record.provider,
      baseUrl: routing.base_url,
      headers: routing.headers,
      capabilities: registry,
      secrets: routing.secrets,
    });
    const host = new URL(routing.base_url).host;
    logger.debug(
      { provider: record.provider, routing: routing.effective_routing, host },
      'ai:provider_selected',
    );
    return {
      ok: true,
      provider: withObserver(provider),
      source: 'organization',
      record_id: record.id ?? null,
    };
  };

  const serverDefault = (endpoint: DefaultEndpointConfig, purpose: ProviderPurpose): ProviderSelection => {
    const model = endpoint.model;
    const models =
      purpose === 'chat'
        ? { chatModel: model, embeddingsModel: endpoint.embeddingsModel ?? null }
        : purpose === 'stt'
          ? { sttModel: model }
          : { ttsModel: model };
    // the model VOICE_EVAL_TTS_MODEL names is taken to speak, whatever its name
    const granted = purpose === 'tts' && endpoint.model ? [`tts:${endpoint.model}`] : [];
    const provider = new OpenAiCompatibleProvider({
      ...shared,
      ...models,
      name: 'default',
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      capabilities: capabilities.withOverrides(granted),
    });
    return { ok: true, provider: withObserver(provider), source: 'server_default', record_id: null };
  };

  return {
    capabilities,
    forRecord,
    routingOf,
    forOrganization(records, selection = {}) {
      const purpose = selection.purpose ?? 'chat';
      const record = selection.provider === 'default' ? null : pickRecord(records, selection.provider);
      if (record) return forRecord(record);
      const endpoint = purpose === 'chat' ? options.defaults?.llm : options.defaults?.[purpose];
      if (endpoint) return serverDefault(endpoint, purpose);
      const what = selection.provider
        ? `no active AI provider ${selection.provider}`
        : 'no active AI provider';
      return notConfigured(`${what} and no server default for ${PURPOSE_NAMES[purpose]}`);
    },
  };
}
