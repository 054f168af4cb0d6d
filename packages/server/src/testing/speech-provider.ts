import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import multer from 'multer';
import { decodeWav, resample } from '../voice/audio/index.js';
import { checkSpeech, SPEECH_SAMPLE_RATE, speechAudio } from './openai-speech.js';
import {
  createSpeechRegistry,
  type RecognizedUtterance,
  type SpeechRegistry,
  synthesizeSpeech,
} from './speech.js';

/**
 * A loopback OpenAI-compatible double of a speech provider. `POST /v1/audio/speech` answers
 * {@link synthesizeSpeech} of `input` in `voice` as 24 kHz 16-bit mono (`wav`, or raw `pcm` as
 * OpenAI sends it) and remembers it at 8 kHz in the speech registry; `POST
 * /v1/audio/transcriptions` (multipart, a WAV `file`) answers the registry's recognition of every
 * channel, merged in time order. Any other path is forwarded to `forwardTo` (the persona double
 * for chat), so one provider URL serves a voice suite run. Latency and HTTP 500s are configurable.
 */

/** The endpoints the double itself serves. */
export type SpeechEndpoint = 'speech' | 'transcriptions';

/** Options of {@link startSpeechProviderDouble}; all but `registry` can change with `setOptions`. */
export interface SpeechProviderDoubleOptions {
  /** Where speech is remembered and recognised (share it with the voice agent double). @default a new one */
  registry?: SpeechRegistry;
  /** Delay before every speech and transcription reply, in ms. @default 0 */
  latencyMs?: number;
  /** Base URL (ending in `/v1`) that every other path is forwarded to. @default null: 404 */
  forwardTo?: string | null;
  /** Bearer token every request must carry (401 otherwise); null accepts any. @default null */
  apiKey?: string | null;
  /** Endpoints that answer HTTP 500 to every request while listed. @default [] */
  failing?: SpeechEndpoint[];
  /** Models `/audio/transcriptions` accepts. @default whisper-1 and the gpt-4o transcribe models */
  sttModels?: string[];
}

/** A speech request served. */
export type SpokenRecord = { input: string; voice: string; model: string; format: 'wav' | 'pcm'; ms: number };

/** A transcription served: what each channel was found to say, merged by time. */
export type TranscribedRecord = {
  model: string;
  channels: number;
  utterances: RecognizedUtterance[];
  text: string;
};

/** A running double. */
export interface SpeechProviderDouble {
  /** The base URL clients use, ending in `/v1`. */
  url: string;
  registry: SpeechRegistry;
  /** Every request, refused and forwarded ones included; times from `performance.now()`. */
  requests: Array<{ method: string; path: string; status: number; at: number }>;
  spoken: SpokenRecord[];
  transcribed: TranscribedRecord[];
  setOptions(patch: Omit<SpeechProviderDoubleOptions, 'registry'>): void;
  /** The next `count` requests to `endpoint` answer HTTP 500. */
  failNext(endpoint: SpeechEndpoint, count?: number): void;
  close(): Promise<void>;
}

/** A speech request body, once `checkSpeech` passed it. */
type SpeechBody = {
  model: string;
  input: string;
  voice: string;
  response_format: 'wav' | 'pcm';
  speed?: number;
};

const DEFAULT_STT_MODELS = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'];
const RECOGNITION_RATE = 8000;
/** Synthesised lines kept for the next request of the same line (the oldest is dropped). */
const SYNTHESISED_KEPT = 256;

const openAiError = (status: number, message: string) => ({
  error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null },
});

/** What each channel of a WAV upload says, merged by start time; throws on a file that is not WAV. */
const transcribe = (bytes: Uint8Array, registry: SpeechRegistry) => {
  const { sampleRate, channels } = decodeWav(bytes);
  const utterances = channels
    .flatMap((channel) =>
      registry.recognizeTimed(
        sampleRate === RECOGNITION_RATE ? channel : resample(channel, sampleRate, RECOGNITION_RATE),
      ),
    )
    .sort((a, b) => a.startMs - b.startMs);
  return { channels: channels.length, utterances };
};

/** The reply body in OpenAI's `response_format`s: `json` (default), `text` or `verbose_json`. */
const transcriptionBody = (format: unknown, utterances: RecognizedUtterance[], text: string) => {
  if (format === 'text') return text;
  if (format !== 'verbose_json') return { text };
  const segments = utterances.map((u, id) => ({
    id,
    start: u.startMs / 1000,
    end: u.endMs / 1000,
    text: u.text,
  }));
  return {
    task: 'transcribe',
    language: 'english',
    duration: (utterances.at(-1)?.endMs ?? 0) / 1000,
    text,
    segments,
  };
};

/** Passes a request on to `base` (ending in `/v1`) and returns the upstream answer. */
const forward = async (base: string, req: Request) => {
  const upstream = await fetch(`${base}${req.originalUrl.replace(/^\/v1/, '')}`, {
    method: req.method,
    headers: {
      'content-type': req.get('content-type') ?? 'application/json',
      authorization: req.get('authorization') ?? '',
    },
    body: Buffer.isBuffer(req.body) && req.body.length > 0 ? new Uint8Array(req.body) : undefined,
  });
  const type = upstream.headers.get('content-type') ?? 'application/json';
  return { status: upstream.status, type, body: Buffer.from(await upstream.arrayBuffer()) };
};

/** Starts the double on 127.0.0.1 on a free port. */
export async function startSpeechProviderDouble(
  initial: SpeechProviderDoubleOptions = {},
): Promise<SpeechProviderDouble> {
  let options: SpeechProviderDoubleOptions = { ...initial };
  const registry = initial.registry ?? createSpeechRegistry();
  const requests: SpeechProviderDouble['requests'] = [];
  const spoken: SpokenRecord[] = [];
  const transcribed: TranscribedRecord[] = [];
  const scriptedFailures: Record<SpeechEndpoint, number> = { speech: 0, transcriptions: 0 };
  const timers = new Set<NodeJS.Timeout>();
  /**
   * Speech already synthesised (and remembered), by voice, speed and text: synthesis holds the
   * event loop it shares with the server in tests, and concurrent calls ask for the same lines.
   */
  const synthesised = new Map<string, Int16Array>();
  const synthesise = (input: string, voice: string, speed: number | undefined) => {
    const key = `${voice}|${speed ?? 1}|${input}`;
    let pcm = synthesised.get(key);
    if (!pcm) {
      pcm = synthesizeSpeech(input, { sampleRate: SPEECH_SAMPLE_RATE, voice, speed });
      registry.remember(input, resample(pcm, SPEECH_SAMPLE_RATE, RECOGNITION_RATE));
      if (synthesised.size >= SYNTHESISED_KEPT) synthesised.delete(synthesised.keys().next().value!);
      synthesised.set(key, pcm);
    }
    return pcm;
  };

  const later = (fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, options.latencyMs ?? 0);
    timers.add(timer);
  };
  const reply = (res: Response, status: number, body: unknown, type?: string) =>
    later(() => {
      if (res.destroyed || res.writableEnded) return;
      res.status(status);
      if (type) res.type(type).send(Buffer.isBuffer(body) ? body : String(body));
      else if (typeof body === 'string') res.type('text/plain').send(body);
      else res.json(body);
    });

  /** Auth and failures first; false when the request was answered already. */
  const admit = (req: Request, res: Response, endpoint: SpeechEndpoint) => {
    if (options.apiKey && req.get('authorization') !== `Bearer ${options.apiKey}`) {
      reply(res, 401, openAiError(401, 'Incorrect API key provided'));
      return false;
    }
    if (scriptedFailures[endpoint] > 0 || options.failing?.includes(endpoint)) {
      scriptedFailures[endpoint] = Math.max(0, scriptedFailures[endpoint] - 1);
      reply(res, 500, openAiError(500, 'The server had an error while processing your request.'));
      return false;
    }
    return true;
  };

  const app = express();
  app.use((req, res, next) => {
    const entry = { method: req.method, path: req.path, status: 0, at: performance.now() };
    requests.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    next();
  });
  app.post('/v1/audio/speech', express.json(), (req, res) => {
    if (!admit(req, res, 'speech')) return;
    const problem = checkSpeech(req.body, {});
    if (problem) return reply(res, 400, openAiError(400, problem));
    const { model, input, voice, response_format: format, speed } = req.body as SpeechBody;
    const pcm = synthesise(input, voice, speed);
    spoken.push({ input, voice, model, format, ms: (pcm.length * 1000) / SPEECH_SAMPLE_RATE });
    const audio = speechAudio(format, pcm);
    reply(res, 200, Buffer.from(audio.bytes), audio.contentType);
  });
  app.post(
    '/v1/audio/transcriptions',
    multer({ storage: multer.memoryStorage() }).single('file'),
    (req, res) => {
      if (!admit(req, res, 'transcriptions')) return;
      const { model, response_format: format } = (req.body ?? {}) as Record<string, unknown>;
      if (!req.file) return reply(res, 400, openAiError(400, 'file is required (multipart field "file")'));
      if (typeof model !== 'string' || !(options.sttModels ?? DEFAULT_STT_MODELS).includes(model)) {
        return reply(res, 400, openAiError(400, `model ${String(model)} does not do transcription`));
      }
      let heard: ReturnType<typeof transcribe>;
      try {
        heard = transcribe(req.file.buffer, registry);
      } catch (error) {
        return reply(res, 400, openAiError(400, `Invalid file format: ${(error as Error).message}`));
      }
      const { channels, utterances } = heard;
      const text = utterances.map((u) => u.text).join(' ');
      transcribed.push({ model, channels, utterances, text });
      reply(res, 200, transcriptionBody(format, utterances, text));
    },
  );
  app.use(express.raw({ type: () => true, limit: '50mb' }), (req, res) => {
    if (!options.forwardTo) return reply(res, 404, openAiError(404, `Unknown path ${req.path}`));
    forward(options.forwardTo, req)
      .then(({ status, type, body }) => res.status(status).type(type).send(body))
      .catch((error: Error) => res.status(502).json(openAiError(502, `forwarding failed: ${error.message}`)));
  });
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(400).json(openAiError(400, `bad request: ${error.message}`));
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    registry,
    requests,
    spoken,
    transcribed,
    setOptions: (patch) => {
      options = { ...options, ...patch };
    },
    failNext: (endpoint, count = 1) => {
      scriptedFailures[endpoint] += count;
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
