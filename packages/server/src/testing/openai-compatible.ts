import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { checkChat, DEFAULT_AUDIO_MODELS } from './openai-chat-checks.js';
import {
  checkSpeech,
  DEFAULT_TTS_MODELS,
  type SpeechInput,
  speechAudio,
  toneVoice,
} from './openai-speech.js';

/**
 * A loopback HTTP double of an OpenAI-compatible API (`POST /v1/chat/completions`,
 * `POST /v1/audio/transcriptions`, `POST /v1/audio/speech`, `POST /v1/embeddings`, `GET /v1/models`). It checks what it
 * receives the way a real server would (auth, model, response_format, audio parts, the multipart
 * upload, the speech input's length), records every request, and answers scripted replies in
 * order, or a default one (for speech: what {@link OpenAiDoubleOptions.synthesize} says).
 */

/** The paths the double serves. */
export type OpenAiDoublePath =
  | '/v1/chat/completions'
  | '/v1/audio/transcriptions'
  | '/v1/audio/speech'
  | '/v1/embeddings'
  | '/v1/models';

/** A request as the double received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The JSON body, or null for GET and multipart requests. */
  json: unknown;
  /** The parsed multipart form of a transcription upload. */
  multipart: {
    fields: Record<string, string>;
    file: { name: string; mimetype: string; bytes: Buffer } | null;
  } | null;
  /** Arrival time from `performance.now()`, in milliseconds. */
  at: number;
}

/** A scripted reply. */
export interface DoubleReply {
  status?: number;
  json?: unknown;
  /** A raw body, sent instead of `json`. */
  text?: string;
  /** A binary body (audio), sent instead of `json` with `contentType`. */
  bytes?: Uint8Array;
  /** @default 'application/octet-stream' for `bytes` */
  contentType?: string;
  headers?: Record<string, string>;
  /** Wait before answering, in milliseconds (added to the double's latency). */
  delayMs?: number;
}

/** Options of {@link startOpenAiDouble}. */
export interface OpenAiDoubleOptions {
  /** The credential every request must carry; unchecked when absent. */
  auth?: { header: string; value: string };
  /** Headers every request must carry with these values. */
  expectHeaders?: Record<string, string>;
  /** Chat models that accept `input_audio` parts. @default the OpenAI audio-preview models */
  audioModels?: string[];
  /** Models `/audio/transcriptions` accepts. @default whisper-1 and the gpt-4o transcribe models */
  sttModels?: string[];
  /** Models `/audio/speech` accepts. @default tts-1, tts-1-hd and gpt-4o-mini-tts */
  ttsModels?: string[];
  /** Voices `/audio/speech` accepts. @default any non-empty voice */
  ttsVoices?: string[];
  /**
   * The default speech reply as 24 kHz 16-bit mono samples (sent as WAV or raw PCM).
   * @default a 440 Hz tone of 200 ms plus 20 ms a character, at most 3 s
   */
  synthesize?: (input: SpeechInput) => Int16Array;
  /** The default transcription of an upload. @default 'transcribed by the double' */
  transcribe?: (audio: Buffer, model: string) => string;
  /** Answer 400 to `response_format: json_schema`, as servers without structured outputs do. */
  rejectJsonSchema?: boolean;
  /** Models `/embeddings` accepts. @default text-embedding-3-small, -3-large and ada-002 */
  embeddingModels?: string[];
  /** The default vector of one input. @default {@link hashedEmbedding} (64 dimensions) */
  embed?: (text: string, model: string) => number[];
  /** Delay before every reply, in milliseconds. @default 0 */
  latencyMs?: number;
}

/** A running double. */
export interface OpenAiDouble {
  /** The base URL clients use, ending in `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Queues replies for a path, answered in order before the default reply. */
  enqueue(path: OpenAiDoublePath, ...replies: DoubleReply[]): void;
  setLatency(ms: number): void;
  /** Stops answering: requests are taken and recorded, their replies wait for `release`. */
  hold(): void;
  /** Sends the replies held since `hold` (to clients still connected) and answers again. */
  release(): void;
  /** How many requests are waiting for their reply because of `hold`. */
  readonly held: number;
  close(): Promise<void>;
}

/** A chat completion whose message content is `content` (objects are JSON-encoded). */
export function chatReply(
  content: unknown,
  usage = { prompt_tokens: 11, completion_tokens: 7 },
): DoubleReply {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return {
    json: {
      id: 'chatcmpl-double',
      object: 'chat.completion',
      model: 'double-model',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** An OpenAI-style error body with this status. */
export function errorReply(status: number, message: string, headers?: Record<string, string>): DoubleReply {
  return { status, headers, json: { error: { message, type: 'invalid_request_error', code: null } } };
}

const DEFAULT_STT_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'];
const DEFAULT_EMBEDDING_MODELS = [
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
];
/** OpenAI's limit on inputs per `/embeddings` request. */
const MAX_EMBEDDING_INPUTS = 2048;

/** A bag-of-words vector: each lower-case word adds 1 to one of 64 dimensions by its hash. */
export function hashedEmbedding(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const word of text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)) {
    let hash = 2166136261;
    for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
    vector[(hash >>> 0) % 64]! += 1;
  }
  return vector;
}

function checkEmbeddings(body: unknown, options: OpenAiDoubleOptions): Check {
  const { model, input } = (body ?? {}) as { model?: unknown; input?: unknown };
  if (typeof model !== 'string') return 'model is required';
  if (!(options.embeddingModels ?? DEFAULT_EMBEDDING_MODELS).includes(model))
    return `model ${model} does not do embeddings`;
  const inputs = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(inputs) || inputs.length === 0) return 'input must be a string or a non-empty array';
  if (inputs.length > MAX_EMBEDDING_INPUTS) return `input has more than ${MAX_EMBEDDING_INPUTS} items`;
  if (!inputs.every((item) => typeof item === 'string' && item.length > 0))
    return 'input items must be non-empty strings';
  return null;
}
const TRANSCRIPTION: DoubleReply = { json: { text: 'transcribed by the double' } };

type Check = string | null;

function checkTranscription(req: Request, options: OpenAiDoubleOptions): Check {
  if (!req.file) return 'file is required (multipart field "file")';
  const model = (req.body as Record<string, unknown>)?.model;
  if (typeof model !== 'string') return 'model is required';
  return (options.sttModels ?? DEFAULT_STT_MODELS).includes(model)
    ? null
    : `model ${model} does not do transcription`;
}

function checkHeaders(req: Request, options: OpenAiDoubleOptions): DoubleReply | null {
  if (options.auth) {
    const received = req.get(options.auth.header) ?? '';
    if (received !== options.auth.value) return errorReply(401, `Incorrect API key provided: ${received}`);
  }
  for (const [name, value] of Object.entries(options.expectHeaders ?? {})) {
    if (req.get(name) !== value) return errorReply(400, `header ${name} is missing or wrong`);
  }
  return null;
}

/** Starts the double on 127.0.0.1 on a free port. */
export async function startOpenAiDouble(options: OpenAiDoubleOptions = {}): Promise<OpenAiDouble> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, DoubleReply[]>();
  const timers = new Set<NodeJS.Timeout>();
  let latencyMs = options.latencyMs ?? 0;

  let heldReplies: Array<() => void> | null = null;

  const send = (res: Response, reply: DoubleReply) => {
    if (heldReplies) {
      heldReplies.push(() => send(res, reply));
      return;
    }
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (res.destroyed || res.writableEnded) return;
        res.status(reply.status ?? 200).set(reply.headers ?? {});
        if (reply.bytes !== undefined) {
          res.type(reply.contentType ?? 'application/octet-stream').send(Buffer.from(reply.bytes));
        } else if (reply.text !== undefined) res.type('text/plain').send(reply.text);
        else res.json(reply.json ?? {});
      },
      latencyMs + (reply.delayMs ?? 0),
    );
    timers.add(timer);
  };

  const handle =
    (check: (req: Request) => Check, fallback: (req: Request) => DoubleReply) =>
    (req: Request, res: Response) => {
      const multipart = req.file
        ? {
            fields: { ...(req.body as Record<string, string>) },
            file: { name: req.file.originalname, mimetype: req.file.mimetype, bytes: req.file.buffer },
          }
        : null;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const json = req.is('application/json') ? (req.body as unknown) : null;
      requests.push({ method: req.method, path: req.path, headers, json, multipart, at: performance.now() });
      const rejected = checkHeaders(req, options);
      if (rejected) return send(res, rejected);
      const problem = check(req);
      if (problem) return send(res, errorReply(400, problem));
      send(res, queues.get(req.path)?.shift() ?? fallback(req));
    };

  const app = express();
  const upload = multer({ storage: multer.memoryStorage() });
  const chatCheck = (req: Request) => checkChat(req.body, options);
  const sttCheck = (req: Request) => checkTranscription(req, options);
  const speechCheck = (req: Request) => checkSpeech(req.body, options);
  const spoken = (req: Request): DoubleReply => {
    const body = req.body as { input: string; voice: string; model: string; response_format: 'wav' | 'pcm' };
    const input = { text: body.input, voice: body.voice, model: body.model };
    return speechAudio(body.response_format, (options.synthesize ?? toneVoice)(input));
  };
  const transcribed = (req: Request): DoubleReply =>
    options.transcribe && req.file
      ? {
          json: {
            text: options.transcribe(req.file.buffer, String((req.body as { model?: unknown }).model)),
          },
        }
      : TRANSCRIPTION;
  const embedded = (req: Request): DoubleReply => {
    const body = req.body as { model: string; input: string | string[] };
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    const tokens = inputs.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
    return {
      json: {
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: (options.embed ?? hashedEmbedding)(text, body.model),
        })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      },
    };
  };
  const modelIds = [
    ...(options.audioModels ?? DEFAULT_AUDIO_MODELS),
    ...(options.sttModels ?? DEFAULT_STT_MODELS),
    ...(options.ttsModels ?? DEFAULT_TTS_MODELS),
    ...(options.embeddingModels ?? DEFAULT_EMBEDDING_MODELS),
  ];
  const models = {
    object: 'list',
    data: modelIds.map((id) => ({ id, object: 'model', owned_by: 'double' })),
  };
  app.post(
    '/v1/chat/completions',
    express.json({ limit: '50mb' }),
    handle(chatCheck, () => chatReply({})),
  );
  app.post('/v1/audio/transcriptions', upload.single('file'), handle(sttCheck, transcribed));
  app.post('/v1/audio/speech', express.json(), handle(speechCheck, spoken));
  app.post(
    '/v1/embeddings',
    express.json({ limit: '50mb' }),
    handle((req) => checkEmbeddings(req.body, options), embedded),
  );
  app.get(
    '/v1/models',
    handle(
      () => null,
      () => ({ json: models }),
    ),
  );
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res
      .status(400)
      .json({ error: { message: `bad request: ${error.message}`, type: 'invalid_request_error' } });
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (path, ...replies) => queues.set(path, [...(queues.get(path) ?? []), ...replies]),
    setLatency: (ms) => {
      latencyMs = ms;
    },
    hold: () => {
      heldReplies ??= [];
    },
    release: () => {
      const replies = heldReplies ?? [];
      heldReplies = null;
      for (const reply of replies) reply();
    },
    get held() {
      return heldReplies?.length ?? 0;
    },
    close: () => {
      heldReplies = null;
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
