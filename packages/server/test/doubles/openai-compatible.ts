import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';

/**
 * A loopback HTTP double of an OpenAI-compatible API (`POST /v1/chat/completions`,
 * `POST /v1/audio/transcriptions`, `GET /v1/models`). It checks what it receives the way a real
 * server would (auth, model, response_format, audio parts, the multipart upload), records every
 * request, and answers scripted replies in order, or a default one.
 */

/** The paths the double serves. */
export type OpenAiDoublePath = '/v1/chat/completions' | '/v1/audio/transcriptions' | '/v1/models';

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
  /** Answer 400 to `response_format: json_schema`, as servers without structured outputs do. */
  rejectJsonSchema?: boolean;
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

const DEFAULT_AUDIO_MODELS = ['gpt-4o-audio-preview', 'gpt-4o-mini-audio-preview'];
const DEFAULT_STT_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'];
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const TRANSCRIPTION: DoubleReply = { json: { text: 'transcribed by the double' } };

type Check = string | null;

function checkContentPart(part: unknown, model: string, audioModels: readonly string[]): Check {
  const p = part as { type?: unknown; text?: unknown; input_audio?: { data?: unknown; format?: unknown } };
  if (p?.type === 'text') return typeof p.text === 'string' ? null : 'text part without text';
  if (p?.type !== 'input_audio') return `unsupported content part type ${String(p?.type)}`;
  const { data, format } = p.input_audio ?? {};
  if (typeof data !== 'string' || !BASE64.test(data)) return 'input_audio.data must be base64';
  if (typeof format !== 'string') return 'input_audio.format is required';
  return audioModels.includes(model) ? null : `This model (${model}) does not support audio input.`;
}

function checkResponseFormat(body: Record<string, unknown>, rejectJsonSchema: boolean): Check {
  const format = body.response_format as {
    type?: unknown;
    json_schema?: { name?: unknown; schema?: unknown };
  };
  if (format === undefined) return null;
  if (format.type === 'json_object') {
    return /json/i.test(JSON.stringify(body.messages))
      ? null
      : "messages must contain the word 'json' to use json_object";
  }
  if (format.type !== 'json_schema') return `response_format type ${String(format.type)} is invalid`;
  if (rejectJsonSchema) return 'response_format json_schema is not supported by this server';
  const name = format.json_schema?.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) return 'json_schema.name is invalid';
  return typeof format.json_schema?.schema === 'object' ? null : 'json_schema.schema must be an object';
}

function checkChat(body: unknown, options: OpenAiDoubleOptions): Check {
  const b = body as Record<string, unknown> | null;
  if (typeof b?.model !== 'string' || !b.model) return 'model is required';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages must be a non-empty array';
  for (const message of b.messages as Array<{ role?: unknown; content?: unknown }>) {
    if (!['system', 'user', 'assistant', 'developer'].includes(String(message?.role))) return 'invalid role';
    if (typeof message.content === 'string') continue;
    if (!Array.isArray(message.content)) return 'content must be a string or an array of parts';
    for (const part of message.content) {
      const problem = checkContentPart(part, b.model, options.audioModels ?? DEFAULT_AUDIO_MODELS);
      if (problem) return problem;
    }
  }
  return checkResponseFormat(b, options.rejectJsonSchema ?? false);
}

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

  const send = (res: Response, reply: DoubleReply) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (res.destroyed || res.writableEnded) return;
        res.status(reply.status ?? 200).set(reply.headers ?? {});
        if (reply.text !== undefined) res.type('text/plain').send(reply.text);
        else res.json(reply.json ?? {});
      },
      latencyMs + (reply.delayMs ?? 0),
    );
    timers.add(timer);
  };

  const handle =
    (check: (req: Request) => Check, fallback: () => DoubleReply) => (req: Request, res: Response) => {
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
      send(res, queues.get(req.path)?.shift() ?? fallback());
    };

  const app = express();
  const upload = multer({ storage: multer.memoryStorage() });
  const chatCheck = (req: Request) => checkChat(req.body, options);
  const sttCheck = (req: Request) => checkTranscription(req, options);
  const modelIds = [
    ...(options.audioModels ?? DEFAULT_AUDIO_MODELS),
    ...(options.sttModels ?? DEFAULT_STT_MODELS),
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
  app.post(
    '/v1/audio/transcriptions',
    upload.single('file'),
    handle(sttCheck, () => TRANSCRIPTION),
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
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
