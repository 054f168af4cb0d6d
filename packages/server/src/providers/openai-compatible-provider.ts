import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../net/retry.js';
import type { CallBudget } from './call-budget.js';
import { type CapabilityRegistry, createCapabilityRegistry } from './capabilities.js';
import {
  buildChatBody,
  isResponseFormatRejection,
  parseChatReply,
  type ResponseFormatMode,
  usageOf,
} from './chat-completion.js';
import type { TransportConfig, TransportOutcome, TransportRequest } from './http-transport.js';
import { sendRequest } from './http-transport.js';
import { jsonSchemaOf } from './json-schema.js';
import { NOOP_LOGGER, type ProviderLogger } from './logger.js';
import {
  type ProviderErrorCode,
  type ProviderResult,
  providerFailure,
  type Usage,
  ZERO_USAGE,
} from './provider-result.js';
import { secretsOf } from './redact.js';
import { speechAudioOf, speechBody } from './speech.js';
import { transcriptionForm, transcriptionOutputOf } from './transcription.js';
import type {
  AiProvider,
  CallOptions,
  ChatOutput,
  ChatRequest,
  EmbeddingsOutput,
  EmbeddingsRequest,
  ListedModel,
  SpeechOutput,
  SpeechRequest,
  TranscriptionOutput,
  TranscriptionRequest,
  UsageEvent,
  UsageHook,
} from './types.js';

/** Options of {@link OpenAiCompatibleProvider}. */
export interface OpenAiCompatibleProviderOptions {
  /** The AIProvider's `provider` value; capability rules are looked up under it. */
  name: string;
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` unless `headers` sets Authorization. */
  apiKey?: string | null;
  /** Extra headers on every request (gateway auth, tenant headers). */
  headers?: Readonly<Record<string, string>>;
  /** The chat model used when a request names none. */
  chatModel?: string | null;
  /** The speech-to-text model used when a request names none. */
  sttModel?: string | null;
  /** The text-to-speech model used when a request names none. */
  ttsModel?: string | null;
  /** The embeddings model (`/embeddings`) used when a request names none; null: no embeddings. */
  embeddingsModel?: string | null;
  /** Most inputs sent in one `/embeddings` request. @default 256 */
  embeddingsBatchSize?: number;
  /** @default the built-in rules */
  capabilities?: CapabilityRegistry;
  logger?: ProviderLogger;
  /** @default globalThis.fetch, resolved at call time */
  fetch?: typeof fetch;
  /** Caps each HTTP attempt, in milliseconds. @default 60000 */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  onUsage?: UsageHook;
  /** More strings to keep out of logs and error messages. */
  secrets?: readonly string[];
}

/** Inputs per `/embeddings` request by default (OpenAI accepts up to 2048). */
export const DEFAULT_EMBEDDINGS_BATCH = 256;

/** The vectors of an `/embeddings` reply in input order, or why the reply is unusable. */
const embeddingsOf = (body: unknown, count: number): number[][] | string => {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return 'embeddings reply has no data array';
  const vectors = Array.from<number[] | undefined>({ length: count });
  for (const [position, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Array.isArray(embedding) || !embedding.every((v) => typeof v === 'number'))
      return 'embeddings reply has a non-numeric embedding';
    if (!Number.isInteger(at) || at < 0 || at >= count)
      return `embeddings reply has index ${at} out of range`;
    vectors[at] = embedding as number[];
  }
  if (vectors.some((v) => v === undefined)) return `embeddings reply has fewer than ${count} vectors`;
  return vectors as number[][];
};

/** The default per-attempt timeout, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * An {@link AiProvider} over the OpenAI wire format (`/chat/completions`,
 * `/audio/transcriptions`, `/audio/speech`, `/models`), for OpenAI, Groq, OpenRouter, Together, vLLM, Ollama
 * and LiteLLM-style gateways alike.
 */
export class OpenAiCompatibleProvider implements AiProvider {
  readonly name: string;
  readonly #options: OpenAiCompatibleProviderOptions;
  readonly #transport: TransportConfig;
  readonly #capabilities: CapabilityRegistry;
  /** Models whose server rejected json_schema once; they get json_object straight away. */
  readonly #jsonSchemaRejected = new Set<string>();

  constructor(options: OpenAiCompatibleProviderOptions) {
    this.name = options.name;
    this.#options = options;
    this.#capabilities = options.capabilities ?? createCapabilityRegistry();
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    Object.assign(headers, options.headers);
    this.#transport = {
      provider: options.name,
      baseUrl: options.baseUrl,
      headers,
      secrets: secretsOf(headers, [...(options.secrets ?? []), ...(options.apiKey ? [options.apiKey] : [])]),
      fetch: (input, init) => (options.fetch ?? globalThis.fetch)(input, init),
      logger: options.logger ?? NOOP_LOGGER,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
  }

  /** Structured-output chat; audio only for models the capability registry says accept it. */
  async chat<T>(request: ChatRequest<T>, options: CallOptions = {}): Promise<ProviderResult<ChatOutput<T>>> {
    const model = request.model ?? this.#options.chatModel ?? null;
    if (!model) return this.#failure('ai_provider_not_configured', 'no chat model is configured', null);
    if (request.audio && !this.#capabilities.acceptsAudio(this.name, model)) {
      return this.#failure('provider_audio_unsupported', `model ${model} does not accept audio input`, model);
    }
    const refused = this.#consume(options.budget, model);
    if (refused) return refused;
    const started = Date.now();
    const { outcome, attempts, mode } = await this.#completeJson(request, model, options);
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const usage = usageOf(outcome.body);
    const event = { kind: 'chat', model, usage, prompt: request.prompt ?? null, attempts } as const;
    await this.#report({ ...event, provider: this.name, duration_ms: Date.now() - started }, options.onUsage);
    const reply = parseChatReply(outcome.body, request.schema);
    if (!reply.ok) {
      this.#transport.logger.warn({ provider: this.name, model, message: reply.message }, 'ai:invalid_reply');
      return this.#failure('invalid_provider_response', reply.message, model);
    }
    return this.#success(
      { data: reply.data, model: reply.model ?? model, response_format: mode },
      usage,
      model,
    );
  }

  /** Speech to text through `/audio/transcriptions` (multipart), for models that do it. */
  async transcribe(
    request: TranscriptionRequest,
    options: CallOptions = {},
  ): Promise<ProviderResult<TranscriptionOutput>> {
    const model = request.model ?? this.#options.sttModel ?? null;
    if (!model)
      return this.#failure('ai_provider_not_configured', 'no speech-to-text model is configured', null);
    if (!this.#capabilities.doesSpeechToText(this.name, model)) {
      return this.#failure('provider_audio_unsupported', `model ${model} does not do speech to text`, model);
    }
    const refused = this.#consume(options.budget, model);
    if (refused) return refused;
    const started = Date.now();
    const outcome = await this.#send(
      { method: 'POST', path: '/audio/transcriptions', model, ...options },
      { form: transcriptionForm(request, model) },
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const usage = usageOf(outcome.body);
    const event = { kind: 'transcription', model, usage, prompt: null, attempts: outcome.attempts } as const;
    await this.#report({ ...event, provider: this.name, duration_ms: Date.now() - started }, options.onUsage);
    const output = transcriptionOutputOf(outcome.body);
    if (!output) return this.#failure('invalid_provider_response', 'transcription reply has no text', model);
    return this.#success(output, usage, model);
  }

  /**
   * Text to speech through `/audio/speech` (JSON in, audio bytes out), for models that do it. The
   * usage event carries the seconds of audio synthesised, as the reply reports no tokens.
   */
  async speak(request: SpeechRequest, options: CallOptions = {}): Promise<ProviderResult<SpeechOutput>> {
    const model = request.model ?? this.#options.ttsModel ?? null;
    if (!model)
      return this.#failure('ai_provider_not_configured', 'no text-to-speech model is configured', null);
    if (!this.#capabilities.doesTextToSpeech(this.name, model)) {
      return this.#failure('provider_audio_unsupported', `model ${model} does not do text to speech`, model);
    }
    const refused = this.#consume(options.budget, model);
    if (refused) return refused;
    const started = Date.now();
    const format = request.format ?? 'wav';
    const outcome = await this.#send(
      { method: 'POST', path: '/audio/speech', model, ...options },
      { json: speechBody(request, model, format), expect: 'bytes' },
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const audio = outcome.body as Uint8Array;
    const read = speechAudioOf(audio, format, outcome.contentType);
    if (!read.ok) return this.#failure('invalid_provider_response', read.message, model);
    const usage = { ...ZERO_USAGE, audio_seconds: read.seconds };
    const event = { kind: 'speech', model, usage, prompt: null, attempts: outcome.attempts } as const;
    await this.#report({ ...event, provider: this.name, duration_ms: Date.now() - started }, options.onUsage);
    return this.#success({ audio, format, sampleRate: read.sampleRate, model }, usage, model);
  }

  /** The default embeddings model, or null when none is configured. */
  get embeddingsModel(): string | null {
    return this.#options.embeddingsModel ?? null;
  }

  /**
   * Embedding vectors through `/embeddings` (`{ model, input: [...] }` in, `data[].embedding` by
   * `index` out), in batches of `embeddingsBatchSize` inputs sent one after another; every batch
   * consumes one unit of the budget, and a refused or failed batch fails the whole call.
   */
  async embed(
    request: EmbeddingsRequest,
    options: CallOptions = {},
  ): Promise<ProviderResult<EmbeddingsOutput>> {
    const model = request.model ?? this.#options.embeddingsModel ?? null;
    if (!model) return this.#failure('ai_provider_not_configured', 'no embeddings model is configured', null);
    const size = Math.max(1, this.#options.embeddingsBatchSize ?? DEFAULT_EMBEDDINGS_BATCH);
    const vectors: number[][] = [];
    const total: Usage = { ...ZERO_USAGE };
    let batches = 0;
    for (let start = 0; start < request.input.length; start += size) {
      const input = request.input.slice(start, start + size);
      const refused = this.#consume(options.budget, model);
      if (refused) return refused;
      const started = Date.now();
      const outcome = await this.#send(
        { method: 'POST', path: '/embeddings', model, ...options },
        { json: { model, input, encoding_format: 'float' } },
      );
      if (!outcome.ok) return { ok: false, error: outcome.error };
      batches++;
      const usage = usageOf(outcome.body);
      total.prompt_tokens += usage.prompt_tokens;
      total.total_tokens += usage.total_tokens;
      const event = { kind: 'embeddings', model, usage, prompt: null, attempts: outcome.attempts } as const;
      await this.#report(
        { ...event, provider: this.name, duration_ms: Date.now() - started },
        options.onUsage,
      );
      const read = embeddingsOf(outcome.body, input.length);
      if (typeof read === 'string') return this.#failure('invalid_provider_response', read, model);
      vectors.push(...read);
    }
    return this.#success({ vectors, model, batches }, total, model);
  }

  /** Lists the provider's models (`GET /models`): the cheapest way to test credentials. */
  async listModels(
    options: Pick<CallOptions, 'timeoutMs' | 'signal'> = {},
  ): Promise<ProviderResult<ListedModel[]>> {
    const outcome = await this.#send({ method: 'GET', path: '/models', model: null, ...options }, {});
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const data = (outcome.body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data))
      return this.#failure('invalid_provider_response', 'models reply has no data array', null);
    const models = data
      .filter((item): item is { id: string; owned_by?: unknown } => typeof item?.id === 'string')
      .map((item) => ({ id: item.id, owned_by: typeof item.owned_by === 'string' ? item.owned_by : null }));
    return this.#success(models, { ...ZERO_USAGE }, null);
  }

  /** Asks for json_schema output; once the server rejects that, json_object (remembered per model). */
  async #completeJson(request: ChatRequest<unknown>, model: string, options: CallOptions) {
    const schema = jsonSchemaOf(request.schema);
    const send = (mode: ResponseFormatMode) =>
      this.#send(
        { method: 'POST', path: '/chat/completions', model, ...options },
        { json: buildChatBody(request, model, mode, schema) },
      );
    if (this.#jsonSchemaRejected.has(model)) {
      const outcome = await send('json_object');
      return { outcome, attempts: outcome.attempts, mode: 'json_object' as const };
    }
    const first = await send('json_schema');
    if (first.ok || !isResponseFormatRejection(first.error.status, first.bodyText)) {
      return { outcome: first, attempts: first.attempts, mode: 'json_schema' as const };
    }
    this.#transport.logger.info({ provider: this.name, model }, 'ai:json_schema_fallback');
    this.#jsonSchemaRejected.add(model);
    const second = await send('json_object');
    return { outcome: second, attempts: first.attempts + second.attempts, mode: 'json_object' as const };
  }

  #send(
    base: Pick<TransportRequest, 'method' | 'path' | 'model'> & Pick<CallOptions, 'timeoutMs' | 'signal'>,
    body: Pick<TransportRequest, 'json' | 'form' | 'expect'>,
  ): Promise<TransportOutcome> {
    const { method, path, model, timeoutMs, signal } = base;
    return sendRequest(this.#transport, { method, path, model, timeoutMs, signal, ...body });
  }

  #consume(budget: CallBudget | undefined, model: string) {
    if (!budget || budget.tryConsume()) return null;
    return this.#failure(
      'budget_exhausted',
      `the job's budget of ${budget.maxCalls} calls is used up`,
      model,
    );
  }

  async #report(event: UsageEvent, perCall: UsageHook | undefined): Promise<void> {
    for (const hook of [this.#options.onUsage, perCall]) {
      if (!hook) continue;
      try {
        await hook(event);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.#transport.logger.warn(
          { provider: this.name, model: event.model, message },
          'ai:usage_hook_failed',
        );
      }
    }
  }

  #success<T>(value: T, usage: Usage, model: string | null): ProviderResult<T> {
    return { ok: true, value, usage, provider: this.name, model };
  }

  #failure(code: ProviderErrorCode, message: string, model: string | null) {
    return providerFailure(code, message, { provider: this.name, model });
  }
}
