import { z } from 'zod';

/**
 * The messages of a bidirectional Twilio Media Stream (Twilio's "Media Streams - WebSocket
 * Messages" page), both directions. The platform plays Twilio's side: it sends `connected`,
 * `start`, `media`, `mark` and `stop`; the agent answers with `media`, `mark` and `clear`. Counters
 * (`sequenceNumber`, `chunk`, `timestamp`) are decimal strings on the wire, as Twilio sends them.
 */

/** The `protocol` and `version` of the `connected` message. */
export const MEDIA_STREAM_PROTOCOL = { protocol: 'Call', version: '1.0.0' } as const;

/** The only audio format of a Media Stream: 8 kHz mono μ-law. */
export const MEDIA_FORMAT = { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } as const;

const Counter = z.string().regex(/^\d+$/, 'Expected a decimal counter string');
/** Base64, padding optional (agents differ; Node decodes both), the empty string included. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const Base64 = z.string().regex(BASE64, 'Expected base64');
const Sid = z.string().min(1);

/** Platform -> agent: the first message, describing the protocol. */
export const ConnectedMessageSchema = z.object({
  event: z.literal('connected'),
  protocol: z.literal(MEDIA_STREAM_PROTOCOL.protocol),
  version: z.literal(MEDIA_STREAM_PROTOCOL.version),
});
export type ConnectedMessage = z.infer<typeof ConnectedMessageSchema>;

/** Platform -> agent: the stream's metadata, right after `connected`. */
export const StartMessageSchema = z.object({
  event: z.literal('start'),
  sequenceNumber: Counter,
  start: z.object({
    streamSid: Sid,
    accountSid: Sid,
    callSid: Sid,
    tracks: z.array(z.literal('inbound')).nonempty(),
    customParameters: z.record(z.string(), z.string()),
    mediaFormat: z.object({
      encoding: z.literal(MEDIA_FORMAT.encoding),
      sampleRate: z.literal(MEDIA_FORMAT.sampleRate),
      channels: z.literal(MEDIA_FORMAT.channels),
    }),
  }),
  streamSid: Sid,
});
export type StartMessage = z.infer<typeof StartMessageSchema>;

/** Platform -> agent: one chunk of the caller's audio; `timestamp` is ms since the stream started. */
export const InboundMediaMessageSchema = z.object({
  event: z.literal('media'),
  sequenceNumber: Counter,
  media: z.object({ track: z.literal('inbound'), chunk: Counter, timestamp: Counter, payload: Base64 }),
  streamSid: Sid,
});
export type InboundMediaMessage = z.infer<typeof InboundMediaMessageSchema>;

/** Platform -> agent: the audio sent before the agent's mark of this name has played (or was cleared). */
export const PlatformMarkMessageSchema = z.object({
  event: z.literal('mark'),
  sequenceNumber: Counter,
  streamSid: Sid,
  mark: z.object({ name: z.string() }),
});
export type PlatformMarkMessage = z.infer<typeof PlatformMarkMessageSchema>;

/** Platform -> agent: the stream ended (the call hung up); the socket closes next. */
export const StopMessageSchema = z.object({
  event: z.literal('stop'),
  sequenceNumber: Counter,
  stop: z.object({ accountSid: Sid, callSid: Sid }),
  streamSid: Sid,
});
export type StopMessage = z.infer<typeof StopMessageSchema>;

/** Any message the platform sends. */
export const PlatformMessageSchema = z.discriminatedUnion('event', [
  ConnectedMessageSchema,
  StartMessageSchema,
  InboundMediaMessageSchema,
  PlatformMarkMessageSchema,
  StopMessageSchema,
]);
export type PlatformMessage = z.infer<typeof PlatformMessageSchema>;

/** Agent -> platform: audio to play to the caller (base64 μ-law 8 kHz mono, no header). */
export const AgentMediaMessageSchema = z.object({
  event: z.literal('media'),
  streamSid: Sid,
  media: z.object({ payload: Base64 }),
});
export type AgentMediaMessage = z.infer<typeof AgentMediaMessageSchema>;

/** Agent -> platform: a marker after the audio queued so far; the platform echoes it once played. */
export const AgentMarkMessageSchema = z.object({
  event: z.literal('mark'),
  streamSid: Sid,
  mark: z.object({ name: z.string() }),
});
export type AgentMarkMessage = z.infer<typeof AgentMarkMessageSchema>;

/** Agent -> platform: drop the audio queued and not yet played (the agent yields on barge-in). */
export const ClearMessageSchema = z.object({ event: z.literal('clear'), streamSid: Sid });
export type ClearMessage = z.infer<typeof ClearMessageSchema>;

/** Any message an agent may send. */
export const AgentMessageSchema = z.discriminatedUnion('event', [
  AgentMediaMessageSchema,
  AgentMarkMessageSchema,
  ClearMessageSchema,
]);
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

/** A parsed message, or why the raw text is not one (malformed input is a value, never thrown). */
export type ParsedMessage<T> = { ok: true; message: T } | { ok: false; reason: string };

const parseWith = <T>(
  schema: z.ZodType<T>,
  raw: string,
  quick?: (json: unknown) => T | null,
): ParsedMessage<T> => {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const quickly = quick?.(json);
  if (quickly) return { ok: true, message: quickly };
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const event = (json as { event?: unknown } | null)?.event;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return {
    ok: false,
    reason:
      typeof event === 'string' || event === undefined
        ? `invalid ${event === undefined ? 'message' : `"${event}" message`}: ${where}${issue?.message}`
        : 'event must be a string',
  };
};

/**
 * The agent's `media` message, by hand: nearly every frame an agent sends is one, fifty a second
 * a call, and zod's walk over it cost more than the rest of the frame's handling. The same checks
 * and the same output (known keys only) as {@link AgentMediaMessageSchema}; null for anything else,
 * which zod then parses and explains.
 */
const agentMedia = (json: unknown): AgentMediaMessage | null => {
  const m = json as { event?: unknown; streamSid?: unknown; media?: { payload?: unknown } } | null;
  if (m?.event !== 'media' || typeof m.streamSid !== 'string' || m.streamSid === '') return null;
  const payload = typeof m.media === 'object' && m.media !== null ? m.media.payload : undefined;
  if (typeof payload !== 'string' || !BASE64.test(payload)) return null;
  return { event: 'media', streamSid: m.streamSid, media: { payload } };
};

/** Parses a text frame an agent sent; unknown events and wrong shapes come back with a reason. */
export const parseAgentMessage = (raw: string): ParsedMessage<AgentMessage> =>
  parseWith(AgentMessageSchema, raw, agentMedia);

/** Parses a text frame the platform sent (for agents and test doubles). */
export const parsePlatformMessage = (raw: string): ParsedMessage<PlatformMessage> =>
  parseWith(PlatformMessageSchema, raw);
