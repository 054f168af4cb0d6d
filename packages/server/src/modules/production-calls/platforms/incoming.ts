import type { TranscriptTurn } from '@voice-eval/contract';

/** Flat metadata kept on a production call. */
export type CallMetadata = Record<string, string | number | boolean | null>;

/**
 * How a recording is fetched: a plain URL (`none`), Vapi's recording API with the private key
 * (`vapi`: the call id and which recording), Twilio's media URL with the account's Basic
 * credentials (`twilio`), or ElevenLabs' audio API with the API key (`elevenlabs`: one mixed MP3).
 * `agent_channel` is which channel of a two-channel file is the agent.
 */
export type RecordingSource =
  | { auth: 'none'; url: string; agent_channel: 0 | 1 }
  | { auth: 'elevenlabs'; conversation_id: string; agent_channel: 0 | 1 }
  | { auth: 'vapi'; call_id: string; recording: 'stereo-recording' | 'mono-recording'; agent_channel: 0 | 1 }
  | { auth: 'twilio'; url: string; agent_channel: 0 | 1 };

/**
 * What one platform delivery says about a call, provider-neutral. Null fields are unknown in this
 * delivery (a later event of the same call may fill them).
 */
export type IncomingCall = {
  external_call_id: string;
  /** The platform's event name, kept on the call's `events`. */
  event: string;
  started_at: Date | null;
  ended_at: Date | null;
  duration_ms: number | null;
  end_reason: string | null;
  /** The turns with their timing; null when this delivery carries none. */
  turns: TranscriptTurn[] | null;
  recording: RecordingSource | null;
  /** Audio carried in the delivery itself (ElevenLabs `post_call_audio`). */
  audio: Buffer | null;
  metadata: CallMetadata;
};

/** A delivery that carries no finished call (a status update, a call that never connected). */
export type Ignored = { ignored: string };

/** What verifying a delivery needs: its raw bytes, its headers, the URL the platform called. */
export type Delivery = {
  rawBody: Buffer;
  header: (name: string) => string | undefined;
  /** The public URL the platform sent the request to (Twilio signs it). */
  url: string;
  /** The parsed body: JSON, or the form of a form-encoded delivery. */
  body: Record<string, unknown>;
};

/** The integration's secrets, opened for this verification only. */
export type IngestSecrets = {
  /** The platform credential (`secret_key`). */
  secret: string;
  public_key: string | null;
  /** Vapi's ingest token. */
  ingest_token: string | null;
  /** ElevenLabs' API key, which lists conversations and fetches their audio. */
  api_key: string | null;
};

export type Verdict = { ok: true } | { ok: false; reason: string };

/**
 * One platform's push format: how a delivery is verified and what it says. `fetchable` drops from a
 * parsed call what the integration's credentials cannot fetch (ElevenLabs' audio API needs the
 * API key), so the call waits for the platform to send it instead.
 */
export type Platform = {
  verify(delivery: Delivery, secrets: IngestSecrets, now: Date): Verdict;
  parse(body: Record<string, unknown>): IncomingCall | Ignored;
  fetchable?(call: IncomingCall, secrets: IngestSecrets): IncomingCall;
};

/** The event name a call landed by reconciliation carries (the platform sent none). */
export const POLLED_EVENT = 'polled';

/** One request for a page of a platform's calls. */
export type ListRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
};

/**
 * A page of a platform's recent calls: the finished ones as the same `IncomingCall` its webhook
 * gives (event `polled`), the start of the earliest call still under way (the next poll starts
 * there), and the request for the next page, if any.
 */
export type ListedPage = { calls: IncomingCall[]; unfinishedSince: Date | null; next: ListRequest | null };

/**
 * How a platform's recent calls are listed: the first page's request (or what the integration
 * lacks), then each page. A platform whose listing carries no transcripts (ElevenLabs) has `detail`:
 * each new call listed is read again, alone, before it lands.
 */
export type CallList = {
  first(apiUrl: string, secrets: IngestSecrets, from: Date): ListRequest | { missing: string };
  page(body: unknown, request: ListRequest, apiUrl: string): ListedPage;
  detail?: {
    request(apiUrl: string, secrets: IngestSecrets, externalId: string): ListRequest;
    parse(body: unknown): IncomingCall | Ignored;
  };
};

/** Calls listed per page. */
export const LIST_PAGE_SIZE = 100;

/** The earlier of two dates, either of which may be unknown. */
export const earliest = (a: Date | null, b: Date | null): Date | null =>
  a === null ? b : b === null ? a : a.getTime() <= b.getTime() ? a : b;

// ---- small readers for untrusted JSON ----

export const obj = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

export const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : null;

/** A date from an ISO string, epoch milliseconds, or (with `unit: 's'`) epoch seconds. */
export const dateOf = (value: unknown, unit: 'ms' | 's' = 'ms'): Date | null => {
  const n = typeof value === 'number' ? value : null;
  const date =
    n !== null ? new Date(unit === 's' ? n * 1000 : n) : typeof value === 'string' ? new Date(value) : null;
  return date && Number.isFinite(date.getTime()) ? date : null;
};

/** Milliseconds from seconds, rounded; null when not a non-negative number. */
export const msOf = (seconds: unknown): number | null => {
  const n = num(seconds);
  return n !== null && n >= 0 ? Math.round(n * 1000) : null;
};

/** The keys of `source` with a flat value, as metadata (a platform's absent fields are left out). */
export const flat = (source: Record<string, unknown>): CallMetadata => {
  const out: CallMetadata = {};
  for (const [key, value] of Object.entries(source)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) out[key] = value as string | number | boolean;
  }
  return out;
};
