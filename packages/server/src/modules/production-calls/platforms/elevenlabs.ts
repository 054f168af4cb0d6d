import type { TranscriptTurn } from '@voice-eval/contract';
import { equalText } from '../../../crypto/equal-text.js';
import { fresh, hmac } from './hmac.js';
import {
  type CallList,
  dateOf,
  earliest,
  flat,
  type Ignored,
  type IncomingCall,
  LIST_PAGE_SIZE,
  type ListedPage,
  msOf,
  num,
  obj,
  type Platform,
  POLLED_EVENT,
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
    // the audio API has it, unless the conversation kept none
    recording:
      data.has_audio === false ? null : { auth: 'elevenlabs', conversation_id: id, agent_channel: 0 },
    audio: null,
    metadata: flat({
      elevenlabs_agent_id: data.agent_id ?? null,
      status: data.status ?? null,
      call_successful: obj(data.analysis).call_successful ?? null,
      cost: num(meta.cost),
    }),
  };
};

/** The audio API needs the API key; without one, the recording is `post_call_audio`'s to bring. */
const fetchable: NonNullable<Platform['fetchable']> = (call, secrets) =>
  secrets.api_key ? call : { ...call, recording: null };

export const elevenlabs: Platform = { verify, parse, fetchable };

/** A conversation in these states may still change; a later poll reads it again. */
const UNFINISHED = new Set(['initiated', 'in-progress', 'processing']);

/**
 * `GET /v1/convai/conversations` with the API key (`xi-api-key`): conversations started after the
 * window's start, newest first, `next_cursor` while `has_more`. The listing carries no transcript,
 * so each new conversation is read with `GET /v1/convai/conversations/{id}` (the body a
 * `post_call_transcription` carries as `data`), and its audio is fetched from the audio API.
 */
export const elevenLabsConversations: CallList = {
  first: (apiUrl, secrets, from) => {
    if (!secrets.api_key) return { missing: 'The ElevenLabs integration has no API key (its api_key).' };
    const query = new URLSearchParams({
      call_start_after_unix: String(Math.floor(from.getTime() / 1000)),
      page_size: String(LIST_PAGE_SIZE),
    });
    return {
      method: 'GET',
      url: `${apiUrl}/v1/convai/conversations?${query}`,
      headers: { 'xi-api-key': secrets.api_key },
    };
  },
  page: (body, request) => {
    const answer = obj(body);
    const items = Array.isArray(answer.conversations) ? answer.conversations.map(obj) : [];
    const page: ListedPage = { calls: [], unfinishedSince: null, next: null };
    for (const item of items) {
      const id = str(item.conversation_id);
      const started = dateOf(item.start_time_unix_secs, 's');
      if (!id) continue;
      if (UNFINISHED.has(str(item.status) ?? '')) {
        page.unfinishedSince = earliest(page.unfinishedSince, started);
        continue;
      }
      // what the listing says, enough to tell a new call; `detail` reads the rest
      const duration = msOf(item.call_duration_secs);
      page.calls.push({
        external_call_id: id,
        event: POLLED_EVENT,
        started_at: started,
        ended_at: started && duration !== null ? new Date(started.getTime() + duration) : null,
        duration_ms: duration,
        end_reason: null,
        turns: null,
        recording: null,
        audio: null,
        metadata: {},
      });
    }
    const cursor = str(answer.next_cursor);
    if (answer.has_more === true && cursor) {
      const url = new URL(request.url);
      url.searchParams.set('cursor', cursor);
      page.next = { ...request, url: url.toString() };
    }
    return page;
  },
  detail: {
    request: (apiUrl, secrets, id) => ({
      method: 'GET',
      url: `${apiUrl}/v1/convai/conversations/${encodeURIComponent(id)}`,
      headers: { 'xi-api-key': secrets.api_key ?? '' },
    }),
    parse: (body) => {
      const call = parse({ type: 'post_call_transcription', data: obj(body) });
      return 'ignored' in call ? call : { ...call, event: POLLED_EVENT };
    },
  },
};
