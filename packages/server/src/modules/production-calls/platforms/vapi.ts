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

/** Vapi's HMAC timestamp is not bounded in its docs; we accept five minutes either way. */
export const VAPI_TOLERANCE_MS = 5 * 60_000;

/**
 * Vapi sends back the credential it was given: the integration's ingest token as `X-Vapi-Secret`
 * (its legacy secret), as `Authorization: Bearer`, or as the key of an HMAC credential with the
 * default plan (`x-signature` = hex HMAC-SHA256 of `{x-timestamp}.{body}`).
 */
const verify: Platform['verify'] = (delivery, secrets, now) => {
  const token = secrets.ingest_token;
  if (!token) return { ok: false, reason: 'The integration has no ingest token.' };
  const signature = delivery.header('x-signature');
  if (signature !== undefined) {
    const timestamp = delivery.header('x-timestamp') ?? '';
    if (!fresh(Number(timestamp), now, VAPI_TOLERANCE_MS))
      return { ok: false, reason: 'x-timestamp is missing or outside five minutes.' };
    const expected = hmac('sha256', token, Buffer.concat([Buffer.from(`${timestamp}.`), delivery.rawBody]));
    return equalText(signature.replace(/^sha256=/, ''), expected)
      ? { ok: true }
      : { ok: false, reason: 'x-signature does not match.' };
  }
  const secret = delivery.header('x-vapi-secret');
  const bearer = /^Bearer (.+)$/i.exec(delivery.header('authorization') ?? '')?.[1];
  const given = secret ?? bearer;
  if (given === undefined) return { ok: false, reason: 'No X-Vapi-Secret, bearer token or x-signature.' };
  return equalText(given, token) ? { ok: true } : { ok: false, reason: 'The token does not match.' };
};

const SPEAKERS: Record<string, TranscriptTurn['speaker']> = {
  bot: 'agent',
  assistant: 'agent',
  user: 'user',
};

/**
 * Vapi's `artifact.messages` as turns: bot and user messages (system prompts and tool calls
 * dropped), timed by `secondsFromStart` and `duration` (milliseconds).
 */
export const vapiTurns = (messages: unknown): TranscriptTurn[] => {
  if (!Array.isArray(messages)) return [];
  const turns: TranscriptTurn[] = [];
  for (const item of messages) {
    const message = obj(item);
    const speaker = SPEAKERS[str(message.role) ?? ''];
    const text = str(message.message);
    if (!speaker || !text) continue;
    const turn: TranscriptTurn = { speaker, text };
    const start = num(message.secondsFromStart);
    if (start !== null && start >= 0) {
      turn.start_ms = Math.round(start * 1000);
      const duration = num(message.duration);
      if (duration !== null && duration >= 0) turn.end_ms = turn.start_ms + Math.round(duration);
    }
    turns.push(turn);
  }
  return turns;
};

/** An `end-of-call-report`; every other server message is ignored. */
const parse = (body: Record<string, unknown>): IncomingCall | Ignored => {
  const message = obj(body.message);
  const type = str(message.type) ?? 'unknown';
  if (type !== 'end-of-call-report') return { ignored: `Vapi "${type}" messages carry no finished call.` };
  const call = obj(message.call);
  const id = str(call.id);
  if (!id) return { ignored: 'The report names no call.' };
  const artifact = obj(message.artifact);
  const started = dateOf(message.startedAt ?? call.startedAt);
  const ended = dateOf(message.endedAt ?? call.endedAt);
  const stereo = str(artifact.stereoRecordingUrl) ?? str(obj(artifact.recording).stereoUrl);
  const mono = str(artifact.recordingUrl) ?? str(obj(obj(artifact.recording).mono).combinedUrl);
  return {
    external_call_id: id,
    event: type,
    started_at: started,
    ended_at: ended,
    duration_ms: started && ended ? Math.max(0, ended.getTime() - started.getTime()) : null,
    end_reason: str(message.endedReason) ?? str(call.endedReason),
    turns: Array.isArray(artifact.messages) ? vapiTurns(artifact.messages) : null,
    recording:
      stereo || mono
        ? {
            auth: 'vapi',
            call_id: id,
            recording: stereo ? 'stereo-recording' : 'mono-recording',
            agent_channel: 0,
          }
        : null,
    audio: null,
    metadata: flat({
      vapi_assistant_id: call.assistantId ?? null,
      vapi_phone_number_id: call.phoneNumberId ?? null,
      call_type: call.type ?? null,
      cost: message.cost ?? null,
      success_evaluation: obj(message.analysis).successEvaluation ?? null,
    }),
  };
};

export const vapi: Platform = { verify, parse };

/**
 * A call of Vapi's `GET /call` as the end-of-call report that would have carried it: the report
 * repeats the call's artifact, analysis, times and end reason at message level.
 */
const reportOf = (call: Record<string, unknown>) => ({
  message: {
    type: 'end-of-call-report',
    call,
    artifact: call.artifact,
    analysis: call.analysis,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    endedReason: call.endedReason,
    cost: call.cost,
  },
});

/**
 * Vapi's `GET /call` with the private key, newest first, created since the window's start; the next
 * page is the calls created before the oldest of a full page. Ended calls land; the others hold
 * the next poll's start back.
 */
export const vapiCalls: CallList = {
  first: (apiUrl, secrets, from) => ({
    method: 'GET',
    url: `${apiUrl}/call?${new URLSearchParams({ limit: String(LIST_PAGE_SIZE), createdAtGe: from.toISOString() })}`,
    headers: { authorization: `Bearer ${secrets.secret}` },
  }),
  page: (body, request) => {
    const items = Array.isArray(body) ? body.map(obj) : [];
    const page: ListedPage = { calls: [], unfinishedSince: null, next: null };
    for (const call of items) {
      if (str(call.status) !== 'ended') {
        page.unfinishedSince = earliest(page.unfinishedSince, dateOf(call.createdAt));
        continue;
      }
      const parsed = parse(reportOf(call));
      if (!('ignored' in parsed)) page.calls.push({ ...parsed, event: POLLED_EVENT });
    }
    const oldest = dateOf(items.at(-1)?.createdAt);
    if (items.length >= LIST_PAGE_SIZE && oldest) {
      const url = new URL(request.url);
      url.searchParams.set('createdAtLt', oldest.toISOString());
      page.next = { ...request, url: url.toString() };
    }
    return page;
  },
};
