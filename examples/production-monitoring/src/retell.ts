import { createHmac } from 'node:crypto';

/**
 * Playing Retell: the webhook bodies Retell POSTs when a call ends (`call_ended`) and when its
 * post-call analysis is ready (`call_analyzed`), signed the way Retell signs them, sent to an
 * integration's `ingest_url`. Use it to try an integration before pointing Retell at it, and in
 * tests. The shapes follow Retell's call object (https://docs.retellai.com/api-references/get-call):
 * timestamps in milliseconds since the epoch, word timings in seconds from the call's start.
 */

/** One word of a Retell utterance; `start` and `end` are seconds from the start of the call. */
export interface RetellWord {
  word: string;
  start: number;
  end: number;
}

/** One utterance of Retell's `transcript_object`. */
export interface RetellUtterance {
  role: 'agent' | 'user';
  content: string;
  words: RetellWord[];
}

/** The part of Retell's call object a post-call webhook carries that voice-eval reads, and a little more. */
export interface RetellCall {
  call_type: 'phone_call' | 'web_call';
  call_id: string;
  agent_id: string;
  call_status: 'ended' | 'error';
  start_timestamp: number;
  end_timestamp: number;
  duration_ms: number;
  disconnection_reason: string;
  transcript: string;
  transcript_object: RetellUtterance[];
  recording_url?: string;
  recording_multi_channel_url?: string;
  metadata: Record<string, unknown>;
  from_number?: string;
  to_number?: string;
  direction?: 'inbound' | 'outbound';
  call_analysis?: {
    call_summary: string;
    user_sentiment: 'Positive' | 'Negative' | 'Neutral' | 'Unknown';
    call_successful: boolean;
    in_voicemail: boolean;
    custom_analysis_data?: Record<string, unknown>;
  };
}

/** A Retell webhook body. */
export interface RetellWebhook {
  event: 'call_started' | 'call_ended' | 'call_analyzed';
  call: RetellCall;
}

/** A call to build: who said what, in order; each line takes its words' time at 150 words a minute. */
export interface CallScript {
  callId: string;
  agentId: string;
  /** When the call started. @default now minus the call's length */
  startedAt?: Date;
  lines: ReadonlyArray<{ role: 'agent' | 'user'; text: string }>;
  /** Retell's reason, verbatim: `user_hangup`, `agent_hangup`, `error_llm_websocket_open`, ... @default user_hangup */
  disconnectionReason?: string;
  recordingUrl?: string;
  metadata?: Record<string, unknown>;
}

const WORD_SECONDS = 0.4;
const PAUSE_SECONDS = 0.6;
const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Retell's `transcript_object` for the lines: one utterance per line, every word timed. */
export const transcriptObject = (lines: CallScript['lines']): RetellUtterance[] => {
  let at = 0.5;
  return lines.map((line) => {
    const words = line.text
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => {
        const timed = { word, start: round(at), end: round(at + WORD_SECONDS * 0.9) };
        at += WORD_SECONDS;
        return timed;
      });
    at += PAUSE_SECONDS;
    return { role: line.role, content: line.text, words };
  });
};

/** The `call_ended` body Retell sends for a finished call. */
export const callEnded = (script: CallScript): RetellWebhook => {
  const transcript_object = transcriptObject(script.lines);
  const lastWord = transcript_object.at(-1)?.words.at(-1);
  const duration_ms = Math.round(((lastWord?.end ?? 0) + 1) * 1000);
  const start = script.startedAt?.getTime() ?? Date.now() - duration_ms;
  const reason = script.disconnectionReason ?? 'user_hangup';
  return {
    event: 'call_ended',
    call: {
      call_type: 'phone_call',
      call_id: script.callId,
      agent_id: script.agentId,
      call_status: reason.startsWith('error') ? 'error' : 'ended',
      start_timestamp: start,
      end_timestamp: start + duration_ms,
      duration_ms,
      disconnection_reason: reason,
      transcript: script.lines.map((l) => `${l.role === 'agent' ? 'Agent' : 'User'}: ${l.text}`).join('\n'),
      transcript_object,
      ...(script.recordingUrl ? { recording_url: script.recordingUrl } : {}),
      metadata: script.metadata ?? {},
      direction: 'inbound',
      from_number: '+14155550100',
      to_number: '+14155550199',
    },
  };
};

/** The `call_analyzed` body Retell sends later for the same call: the call again, with `call_analysis`. */
export const callAnalyzed = (ended: RetellWebhook, analysis: NonNullable<RetellCall['call_analysis']>) =>
  ({ event: 'call_analyzed', call: { ...ended.call, call_analysis: analysis } }) satisfies RetellWebhook;

/**
 * `X-Retell-Signature: v=<ms>,d=<hex HMAC-SHA256 of body + ms>` under the Retell API key, over the
 * exact bytes sent (docs/production-calls.md; Retell's "Secure the webhook").
 */
export const retellSignature = (body: string, apiKey: string, at: Date = new Date()): string => {
  const ms = String(at.getTime());
  return `v=${ms},d=${createHmac('sha256', apiKey)
    .update(body + ms)
    .digest('hex')}`;
};

/** What the ingest endpoint answered. */
export interface Delivery {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** Options of {@link deliver}. */
export interface DeliverOptions {
  /** When the delivery was signed (a stale one is refused). @default now */
  signedAt?: Date;
  /** Sends these bytes instead of the body that was signed (a tampered delivery). */
  sendInstead?: string;
  fetch?: typeof fetch;
}

/**
 * POSTs a Retell webhook to the ingest URL as Retell does: the JSON body, signed under the API key.
 * Resolves with the answer whatever its status (a refusal is something to look at, not to throw).
 */
export async function deliver(
  ingestUrl: string,
  webhook: RetellWebhook,
  apiKey: string,
  options: DeliverOptions = {},
): Promise<Delivery> {
  const body = JSON.stringify(webhook);
  const response = await (options.fetch ?? fetch)(ingestUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-retell-signature': retellSignature(body, apiKey, options.signedAt),
    },
    body: options.sendInstead ?? body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, contentType: response.headers.get('content-type'), body: parsed };
}
