import type {
  AudioFormat,
  TranscriptionOutput,
  TranscriptionRequest,
  TranscriptionSegment,
} from './types.js';

/** The `/audio/transcriptions` wire format: the multipart upload and the JSON reply. */

const MIME_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  aac: 'audio/aac',
  aiff: 'audio/aiff',
  opus: 'audio/ogg',
};

/** The multipart body: `file`, `model`, `response_format` (`json`, or `verbose_json` with segments), and the optional hints. */
export function transcriptionForm(request: TranscriptionRequest, model: string): FormData {
  const form = new FormData();
  const { data, format } = request.audio;
  // A copy: Blob wants ArrayBuffer-backed bytes, and the input may view a SharedArrayBuffer.
  const blob = new Blob([new Uint8Array(data)], { type: MIME_TYPES[format] });
  form.append('file', blob, request.audio.filename ?? `audio.${format}`);
  form.append('model', model);
  if (request.segments) {
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');
  } else form.append('response_format', 'json');
  if (request.language) form.append('language', request.language);
  if (request.prompt) form.append('prompt', request.prompt);
  return form;
}

const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : null;

/** `verbose_json` segments (`start`/`end` in seconds) in time order; null when absent or malformed. */
const segmentsOf = (value: unknown): TranscriptionSegment[] | null => {
  if (!Array.isArray(value)) return null;
  const segments: TranscriptionSegment[] = [];
  for (const item of value as Array<{ start?: unknown; end?: unknown; text?: unknown } | null>) {
    const start = seconds(item?.start);
    const end = seconds(item?.end);
    if (start === null || end === null || typeof item?.text !== 'string') return null;
    segments.push({ start_ms: start, end_ms: Math.max(start, end), text: item.text.trim() });
  }
  return segments.sort((a, b) => a.start_ms - b.start_ms);
};

/** The transcription in a reply, or null when it has no `text`. */
export function transcriptionOutputOf(body: unknown): TranscriptionOutput | null {
  const reply = body as {
    text?: unknown;
    language?: unknown;
    duration?: unknown;
    segments?: unknown;
  } | null;
  if (typeof reply?.text !== 'string') return null;
  return {
    text: reply.text,
    language: typeof reply.language === 'string' ? reply.language : null,
    duration_seconds: typeof reply.duration === 'number' ? reply.duration : null,
    segments: segmentsOf(reply.segments),
  };
}
