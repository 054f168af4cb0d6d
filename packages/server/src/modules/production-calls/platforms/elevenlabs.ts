import type { TranscriptTurn } from '@voice-eval/contract';
import { equalText } from '../../../crypto/equal-text.js';
import { fresh, hmac } from './hmac.js';
import {
  dateOf,
  flat,
  type Ignored,
  type IncomingCall,
  msOf,
  num,
  obj,
  type Platform,
  str,
} from './incoming.js';

/** ElevenLabs' SDK refuses signatures older than 30 minutes; we bound the future the same way. */
export const ELEVENLABS_TOLERANCE_MS = 30 * 60_000;

/**
 * `ElevenLabs-Signature: t=<seconds>,v0=<hex>`, the hex HMAC-SHA256 of `{t}.{raw body}` keyed
 * with the webhook's secret.
 */
const verify: Platform['verify'] = (delivery, secrets, now) => {
  const parts = (delivery.header('elevenlabs-signature') ?? '').split(',');
  const timestamp = parts.find((p) => p.startsWith('t='))?.slice(2);
  const signature = parts.find((p) => p.startsWith('v0='))?.slice(3);
  if (!timestamp || !signature) return { ok: false, reason: 'ElevenLabs-Signature is missing or malformed.' };
  if (!fresh(Number(timestamp) * 1000, now, ELEVENLABS_TOLERANCE_MS))
    return { ok: false, reason: 'The signature is older or newer than 30 minutes.' };
  const expected = hmac(
    'sha256',
    secrets.secret,
    Buffer.concat([Buffer.from(`${timestamp}.`), delivery.rawBody]),
  );
  return equalText(signature, expected)
    ? { ok: true }
    : { ok: false, reason: 'The signature does not match.' };
};

/**
 * ElevenLabs' `data.transcript` as turns: user and agent messages (tool-call entries, whose
 * message is null, dropped), each timed by its start (`time_in_call_secs`); ElevenLabs gives no end.
 */
export const elevenLabsTurns = (transcript: unknown): TranscriptTurn[] => {
  if (!Array.isArray(transcript)) return [];
  const turns: TranscriptTurn[] = [];
  for (const item of transcript) {
    const entry = obj(item);
    const role = str(entry.role);
    const text = str(entry.message);
    if ((role !== 'agent' && role !== 'user') || !text) continue;
    const start = msOf(entry.time_in_call_secs);
    turns.push(start === null ? { speaker: role, text } : { speaker: role, text, start_ms: start });
  }
  return turns;
};

/** `post_call_transcription` (the call) and `post_call_audio` (its recording); others are ignored. */
const parse = (body: Record<string, unknown>): IncomingCall | Ignored => {
  const type = str(body.type) ?? 'unknown';
  if (type !== 'post_call_transcription' && type !== 'post_call_audio')
    return { ignored: `ElevenLabs "${type}" events carry no finished call.` };
  const data = obj(body.data);
  const id = str(data.conversation_id);
  if (!id) return { ignored: 'The event names no conversation.' };
  if (type === 'post_call_audio') {
    const audio = str(data.full_audio);
    return {
      external_call_id: id,
      event: type,
      started_at: null,
      ended_at: null,
      duration_ms: null,
      end_reason: null,
      turns: null,
      recording: null,
      audio: audio ? Buffer.from(audio, 'base64') : null,
      metadata: flat({ elevenlabs_agent_id: data.agent_id ?? null }),
    };
  }
  const meta = obj(data.metadata);
  const started = dateOf(meta.start_time_unix_secs, 's');
  const duration = msOf(meta.call_duration_secs);
  return {
    external_call_id: id,
    event: type,
    started_at: started,
    ended_at: started && duration !== null ? new Date(started.getTime() + duration) : null,
    duration_ms: duration,
    end_reason: str(meta.termination_reason),
    turns: Array.isArray(data.transcript) ? elevenLabsTurns(data.transcript) : null,
    recording: null,
    audio: null,
    metadata: flat({
      elevenlabs_agent_id: data.agent_id ?? null,
      status: data.status ?? null,
      call_successful: obj(data.analysis).call_successful ?? null,
      cost: num(meta.cost),
    }),
  };
};

export const elevenlabs: Platform = { verify, parse };
