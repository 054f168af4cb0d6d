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
  num,
  obj,
  type Platform,
  POLLED_EVENT,
  str,
} from './incoming.js';

/** Retell's window for `X-Retell-Signature`'s timestamp. */
export const RETELL_TOLERANCE_MS = 5 * 60_000;

/**
 * `X-Retell-Signature: v=<ms>,d=<hex>`, the hex HMAC-SHA256 of the raw body followed by the
 * timestamp, keyed with the Retell API key that carries the webhook badge; five minutes either way.
 */
const verify: Platform['verify'] = (delivery, secrets, now) => {
  const match = /^v=(\d+),d=([0-9a-f]{64})$/i.exec(delivery.header('x-retell-signature') ?? '');
  if (!match) return { ok: false, reason: 'X-Retell-Signature is missing or malformed.' };
  const [, timestamp, digest] = match as unknown as [string, string, string];
  if (!fresh(Number(timestamp), now, RETELL_TOLERANCE_MS))
    return { ok: false, reason: 'The signature is older or newer than five minutes.' };
  const expected = hmac('sha256', secrets.secret, Buffer.concat([delivery.rawBody, Buffer.from(timestamp)]));
  return equalText(digest.toLowerCase(), expected)
    ? { ok: true }
    : { ok: false, reason: 'The signature does not match.' };
};

/**
 * Retell's `transcript_object` as turns: agent and user utterances (a transfer target's dropped),
 * timed by their first word's start and last word's end (seconds of audio).
 */
export const retellTurns = (transcript: unknown): TranscriptTurn[] => {
  if (!Array.isArray(transcript)) return [];
  const turns: TranscriptTurn[] = [];
  for (const item of transcript) {
    const utterance = obj(item);
    const role = str(utterance.role);
    const text = str(utterance.content);
    if ((role !== 'agent' && role !== 'user') || !text) continue;
    const turn: TranscriptTurn = { speaker: role, text };
    const words = Array.isArray(utterance.words) ? utterance.words.map(obj) : [];
    const start = num(words[0]?.start);
    const end = num(words.at(-1)?.end);
    if (start !== null && start >= 0) turn.start_ms = Math.round(start * 1000);
    if (end !== null && end >= 0 && (turn.start_ms === undefined || end * 1000 >= turn.start_ms))
      turn.end_ms = Math.round(end * 1000);
    turns.push(turn);
  }
  return turns;
};

/** `call_ended` and `call_analyzed` (the same call, merged); other events are ignored. */
const parse = (body: Record<string, unknown>): IncomingCall | Ignored => {
  const event = str(body.event) ?? str(body.event_type) ?? 'unknown';
  if (event !== 'call_ended' && event !== 'call_analyzed')
    return { ignored: `Retell "${event}" events carry no finished call.` };
  const call = obj(body.call ?? body.data);
  const id = str(call.call_id);
  if (!id) return { ignored: 'The event names no call.' };
  const recording = str(call.recording_multi_channel_url) ?? str(call.recording_url);
  const analysis = obj(call.call_analysis);
  return {
    external_call_id: id,
    event,
    started_at: dateOf(call.start_timestamp),
    ended_at: dateOf(call.end_timestamp),
    duration_ms: num(call.duration_ms),
    end_reason: str(call.disconnection_reason),
    turns: Array.isArray(call.transcript_object) ? retellTurns(call.transcript_object) : null,
    recording: recording ? { auth: 'none', url: recording, agent_channel: 0 } : null,
    audio: null,
    metadata: flat({
      retell_agent_id: call.agent_id ?? null,
      agent_version: call.agent_version ?? null,
      direction: call.direction ?? null,
      call_successful: analysis.call_successful ?? null,
      user_sentiment: analysis.user_sentiment ?? null,
    }),
  };
};

export const retell: Platform = { verify, parse };

/** Retell's call statuses after which nothing more happens to the call. */
const FINISHED = new Set(['ended', 'not_connected', 'error']);

/**
 * Retell's `POST /v3/list-calls` with the API key, newest first, started since the window's start;
 * each item is the `call` object its webhook carries. Finished calls land; the others hold the
 * next poll's start back. A full page continues after its last call (`pagination_key`).
 */
export const retellCalls: CallList = {
  first: (apiUrl, secrets, from) => ({
    method: 'POST',
    url: `${apiUrl}/v3/list-calls`,
    headers: { authorization: `Bearer ${secrets.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      filter_criteria: { start_timestamp: { lower_threshold: from.getTime() } },
      sort_order: 'descending',
      limit: LIST_PAGE_SIZE,
    }),
  }),
  page: (body, request) => {
    // an array of calls, or an object holding them (and its own pagination key)
    const listed = obj(body);
    const raw = Array.isArray(body) ? body : Array.isArray(listed.calls) ? listed.calls : [];
    const items = raw.map(obj);
    const page: ListedPage = { calls: [], unfinishedSince: null, next: null };
    for (const call of items) {
      if (!FINISHED.has(str(call.call_status) ?? '')) {
        page.unfinishedSince = earliest(page.unfinishedSince, dateOf(call.start_timestamp));
        continue;
      }
      const parsed = parse({ event: 'call_ended', call });
      if (!('ignored' in parsed)) page.calls.push({ ...parsed, event: POLLED_EVENT });
    }
    const key =
      str(listed.pagination_key) ?? (items.length >= LIST_PAGE_SIZE ? str(items.at(-1)?.call_id) : null);
    if (key && items.length > 0)
      page.next = {
        ...request,
        body: JSON.stringify({ ...obj(JSON.parse(request.body!)), pagination_key: key }),
      };
    return page;
  },
};
