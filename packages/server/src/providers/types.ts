import type { ZodType, ZodTypeDef } from 'zod';
import type { CallBudget } from './call-budget.js';
import type { ProviderResult, Usage } from './provider-result.js';

/** Audio container formats accepted for chat `input_audio` parts and speech-to-text uploads. */
export const AUDIO_FORMATS = ['wav', 'mp3', 'flac', 'm4a', 'ogg', 'webm', 'aac', 'aiff', 'opus'] as const;

/** One of {@link AUDIO_FORMATS}. */
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** A recording sent to a model: raw bytes and their container format. */
export interface AudioInput {
  data: Uint8Array;
  format: AudioFormat;
  /** The upload's file name for speech to text. @default `audio.<format>` */
  filename?: string;
}

/** Which versioned prompt produced a request, carried into usage events. */
export interface PromptRef {
  id: string;
  version: number;
}

/**
 * A chat call whose reply must be JSON matching `schema`. The adapter asks for it with
 * `response_format: json_schema`, falls back to `json_object` when the server rejects that, and
 * validates the reply with `schema` either way.
 */
export interface ChatRequest<T> {
  /** The model; the provider's default model when omitted. */
  model?: string;
  system: string;
  user: string;
  /** A recording appended to the user message; only audio-capable models accept it. */
  audio?: AudioInput;
  schema: ZodType<T, ZodTypeDef, unknown>;
  /** The JSON-schema name sent to the provider (`^[A-Za-z0-9_-]{1,64}$`). */
  schemaName: string;
  temperature?: number;
  /** Sent as `seed`: providers that support it sample reproducibly for the same seed. */
  seed?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  prompt?: PromptRef;
}

/** A successful chat reply. */
export interface ChatOutput<T> {
  data: T;
  /** The model the provider says answered (may differ from the requested alias). */
  model: string;
  /** How the JSON was obtained: strict schema, or json_object plus local validation. */
  response_format: 'json_schema' | 'json_object';
}

/** A speech-to-text call (`POST /audio/transcriptions`). */
export interface TranscriptionRequest {
  /** The model; the provider's default speech-to-text model when omitted. */
  model?: string;
  audio: AudioInput;
  /** ISO-639-1 language hint. */
  language?: string;
  /** Vocabulary or style hint passed as `prompt`. */
  prompt?: string;
  /**
   * Ask for segment timestamps (`response_format=verbose_json`, `timestamp_granularities[]=segment`),
   * which models such as whisper-1 give and the gpt-4o transcribe models refuse.
   */
  segments?: boolean;
}

/** A stretch of a transcription with its times from the start of the audio. */
export interface TranscriptionSegment {
  start_ms: number;
  end_ms: number;
  text: string;
}

/** A transcription: plain text, no speaker turns; segments when they were asked for and given. */
export interface TranscriptionOutput {
  text: string;
  language: string | null;
  duration_seconds: number | null;
  segments: TranscriptionSegment[] | null;
}

/** Audio formats {@link AiProvider.speak} asks for: a WAV file, or raw 24 kHz 16-bit mono PCM. */
export const SPEECH_FORMATS = ['wav', 'pcm'] as const;

/** One of {@link SPEECH_FORMATS}. */
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** A text-to-speech call (`POST /audio/speech`). */
export interface SpeechRequest {
  /** The model; the provider's default text-to-speech model when omitted. */
  model?: string;
  /** The provider's voice id (`alloy`, `nova`, ... on OpenAI). */
  voice: string;
  /** What to say; OpenAI accepts up to 4096 characters. */
  text: string;
  /** Sent as `response_format`. @default 'wav' */
  format?: SpeechFormat;
  /** Speaking rate, 0.25 to 4 on OpenAI. @default the provider's (1) */
  speed?: number;
}

/** Synthesised speech: the audio bytes as the provider sent them. */
export interface SpeechOutput {
  audio: Uint8Array;
  format: SpeechFormat;
  /** Samples per second: read from the WAV header, or 24 000 for `pcm` as OpenAI documents. */
  sampleRate: number;
  /** The model that was asked. */
  model: string;
}

/** An embeddings call (`POST /embeddings`), batched by the provider. */
export interface EmbeddingsRequest {
  /** The model; the provider's default embeddings model when omitted. */
  model?: string;
  /** The texts, one vector each (in order). */
  input: readonly string[];
}

/** Embedding vectors, one per input text in input order. */
export interface EmbeddingsOutput {
  vectors: number[][];
  /** The model that was asked. */
  model: string;
  /** HTTP requests the batches took (each consumed one unit of the call budget). */
  batches: number;
}

/** A model the provider lists (`GET /models`). */
export interface ListedModel {
  id: string;
  owned_by: string | null;
}

/** What {@link UsageHook} receives after every successful chat, transcription or speech call. */
export interface UsageEvent {
  kind: 'chat' | 'transcription' | 'speech' | 'embeddings';
  provider: string;
  model: string | null;
  usage: Usage;
  prompt: PromptRef | null;
  /** HTTP attempts the call took, retries and fallbacks included. */
  attempts: number;
  duration_ms: number;
}

/** Called with token usage so the server can persist it; errors it throws are logged, not raised. */
export type UsageHook = (event: UsageEvent) => void | Promise<void>;

/** Per-call options. */
export interface CallOptions {
  /** Caps each HTTP attempt, in milliseconds. @default the provider's `timeoutMs` (60 000) */
  timeoutMs?: number;
  /** The job's budget; the call consumes one unit or returns `budget_exhausted`. */
  budget?: CallBudget;
  /** Aborting returns `cancelled`. */
  signal?: AbortSignal;
  /** Called in addition to the provider's own hook. */
  onUsage?: UsageHook;
}

/**
 * LLM chat with structured output, speech to text, text to speech, and a model listing to test
 * credentials.
 */
export interface AiProvider {
  /** The AIProvider's `provider` value, or `default` for the server default. */
  readonly name: string;
  chat<T>(request: ChatRequest<T>, options?: CallOptions): Promise<ProviderResult<ChatOutput<T>>>;
  transcribe(
    request: TranscriptionRequest,
    options?: CallOptions,
  ): Promise<ProviderResult<TranscriptionOutput>>;
  speak(request: SpeechRequest, options?: CallOptions): Promise<ProviderResult<SpeechOutput>>;
  listModels(options?: Pick<CallOptions, 'timeoutMs' | 'signal'>): Promise<ProviderResult<ListedModel[]>>;
  /**
   * Embedding vectors through `/embeddings`, when the provider has an embeddings model (see
   * {@link AiProvider.embeddingsModel}); each batch of inputs is one call of the budget.
   */
  embed?(request: EmbeddingsRequest, options?: CallOptions): Promise<ProviderResult<EmbeddingsOutput>>;
  /** The default embeddings model, or null when the provider offers none. */
  readonly embeddingsModel?: string | null;
}
