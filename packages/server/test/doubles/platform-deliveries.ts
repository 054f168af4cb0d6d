import { createHmac } from 'node:crypto';

/**
 * What the voice-agent platforms send when a call ends, as the loopback doubles deliver it: each
 * platform's body (the shapes of its SDK types), its signature (node's crypto, apart from the
 * server's verifiers), and its delivery behaviour. The recordings they point at are served by
 * `platforms.ts`.
 */

// ---- bodies, as each platform sends them ----

/** The call length of the bodies below, which start at a fixed time unless told `startedAt`. */
const VAPI_CALL_MS = 128_442;
const RETELL_CALL_MS = 15_791;

/**
 * A Vapi `end-of-call-report` with two spoken turns (and a system prompt and a tool call, dropped);
 * `startedAt` moves the call (it lasts as long).
 */
export const vapiReport = (callId: string, options: { stereo?: boolean; startedAt?: Date } = {}) => ({
  message: {
    type: 'end-of-call-report',
    timestamp: 1760520270300,
    endedReason: 'customer-ended-call',
    startedAt: options.startedAt?.toISOString() ?? '2025-10-15T09:22:21.787Z',
    endedAt: options.startedAt
      ? new Date(options.startedAt.getTime() + VAPI_CALL_MS).toISOString()
      : '2025-10-15T09:24:30.229Z',
    cost: 0.1342,
    analysis: { summary: 'Caller asked about a charge.', successEvaluation: 'true' },
    artifact: {
      messages: [
        { role: 'system', message: 'You are Alex…', time: 1760520141787, secondsFromStart: 0 },
        {
          role: 'bot',
          message: 'Hi, this is Alex. How can I help?',
          time: 1760520142852,
          endTime: 1760520147842,
          secondsFromStart: 1.065,
          duration: 4990,
        },
        {
          role: 'user',
          message: 'I have a question about a charge.',
          time: 1760520149392,
          endTime: 1760520153012,
          secondsFromStart: 7.605,
          duration: 3620,
        },
        {
          role: 'tool_calls',
          message: '',
          toolCalls: [{ id: 'call_1', type: 'function' }],
          time: 1760520154000,
          secondsFromStart: 12.213,
        },
      ],
      transcript: 'AI: Hi, this is Alex. How can I help?\nUser: I have a question about a charge.',
      ...(options.stereo === false
        ? {}
        : {
            stereoRecordingUrl: `https://storage.vapi.ai/${callId}-stereo.wav`,
            recordingUrl: `https://storage.vapi.ai/${callId}-mono.wav`,
          }),
    },
    call: {
      id: callId,
      orgId: 'org-1',
      type: 'inboundPhoneCall',
      status: 'ended',
      assistantId: 'asst-1',
      phoneNumberId: 'pn-1',
    },
  },
});

/**
 * A Retell call event (`call_ended`, or `call_analyzed` with its analysis); `startedAt` moves the
 * call (it lasts as long).
 */
export const retellEvent = (
  event: 'call_ended' | 'call_analyzed' | 'call_started',
  callId: string,
  recordingUrl: string,
  options: { startedAt?: Date } = {},
) => ({
  event,
  call: {
    call_type: 'phone_call',
    call_id: callId,
    agent_id: 'oBeDLoLOeuAbiuaMFXRtDOLriTJ5tSxD',
    agent_version: 3,
    call_status: 'ended',
    direction: 'inbound',
    start_timestamp: options.startedAt?.getTime() ?? 1714608475945,
    end_timestamp: (options.startedAt?.getTime() ?? 1714608475945) + RETELL_CALL_MS,
    duration_ms: RETELL_CALL_MS,
    disconnection_reason: 'user_hangup',
    transcript: 'Agent: Hi, how can I help?\nUser: Book at 7 PM.',
    transcript_object: [
      {
        role: 'agent',
        content: 'Hi, how can I help?',
        words: [
          { word: 'Hi,', start: 0.7, end: 0.9 },
          { word: ' how', start: 0.9, end: 1.6 },
        ],
      },
      {
        role: 'user',
        content: 'Book at 7 PM.',
        words: [
          { word: 'Book', start: 2.3, end: 2.6 },
          { word: ' PM.', start: 3.1, end: 3.4 },
        ],
      },
    ],
    recording_multi_channel_url: recordingUrl,
    latency: { e2e: { p50: 812, p90: 1210, p99: 1600, min: 640, max: 1650, num: 4 } },
    ...(event === 'call_analyzed'
      ? {
          call_analysis: {
            call_summary: 'Booked.',
            call_successful: true,
            user_sentiment: 'Positive',
            in_voicemail: false,
          },
        }
      : {}),
  },
});

/** An ElevenLabs `post_call_transcription`; `startedAt` moves the conversation. */
export const elevenLabsTranscription = (conversationId: string, options: { startedAt?: Date } = {}) => ({
  type: 'post_call_transcription',
  event_timestamp: 1760520150,
  data: {
    agent_id: 'agent_test',
    conversation_id: conversationId,
    status: 'done',
    transcript: [
      { role: 'agent', message: 'Hello, you reached the clinic.', time_in_call_secs: 0 },
      { role: 'agent', message: null, tool_calls: [{ tool_name: 'lookup' }], time_in_call_secs: 2 },
      { role: 'user', message: 'I need to move my appointment.', time_in_call_secs: 3 },
    ],
    metadata: {
      start_time_unix_secs: options.startedAt ? Math.floor(options.startedAt.getTime() / 1000) : 1760520100,
      call_duration_secs: 42,
      termination_reason: 'end_call tool',
      cost: 120,
    },
    analysis: { call_successful: 'success', transcript_summary: 'Moved.' },
  },
});

/** An ElevenLabs `post_call_audio` carrying the recording. */
export const elevenLabsAudio = (conversationId: string, audio: Buffer) => ({
  type: 'post_call_audio',
  event_timestamp: 1760520160,
  data: { agent_id: 'agent_test', conversation_id: conversationId, full_audio: audio.toString('base64') },
});

/** A Twilio recording status callback's form parameters; `startedAt` moves the recording. */
export const twilioCallback = (
  accountSid: string,
  callSid: string,
  recordingSid: string,
  recordingUrl: string,
  options: { startedAt?: Date } = {},
) => ({
  AccountSid: accountSid,
  CallSid: callSid,
  RecordingSid: recordingSid,
  RecordingUrl: recordingUrl,
  RecordingStatus: 'completed',
  RecordingDuration: '3',
  RecordingChannels: '2',
  RecordingSource: 'StartCallRecordingAPI',
  RecordingStartTime: options.startedAt
    ? options.startedAt.toUTCString().replace('GMT', '+0000')
    : 'Wed, 15 Oct 2025 09:22:21 +0000',
});

// ---- signatures, by each platform's scheme ----

const hmacHex = (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex');

/** `X-Retell-Signature`: hex HMAC-SHA256(API key, body + timestamp ms). */
export const retellSignature = (body: string, apiKey: string, at = Date.now()) =>
  `v=${at},d=${hmacHex(apiKey, body + String(at))}`;

/** `ElevenLabs-Signature`: hex HMAC-SHA256(webhook secret, "t.body"), t in seconds. */
export const elevenLabsSignature = (
  body: string,
  secret: string,
  atSeconds = Math.floor(Date.now() / 1000),
) => `t=${atSeconds},v0=${hmacHex(secret, `${atSeconds}.${body}`)}`;

/** Vapi's HMAC credential (default plan): `x-timestamp` and hex HMAC-SHA256 of "timestamp.body". */
export const vapiHmacHeaders = (body: string, secret: string, at = Date.now()) => ({
  'x-timestamp': String(at),
  'x-signature': hmacHex(secret, `${at}.${body}`),
});

/** `X-Twilio-Signature`: base64 HMAC-SHA1(auth token, URL + each sorted name and value). */
export const twilioSignatureOf = (authToken: string, url: string, params: Record<string, string>) =>
  createHmac('sha1', authToken)
    .update(
      url +
        Object.keys(params)
          .sort()
          .map((key) => key + params[key])
          .join(''),
    )
    .digest('base64');

// ---- delivery ----

export type Delivered = { status: number; body: any; attempts: number };

/**
 * POSTs a delivery as the platform does: `retries` more attempts after a non-2xx (Retell: 3; Vapi
 * and ElevenLabs: none by default), 100 ms apart.
 */
export const deliver = async (
  url: string,
  body: string,
  headers: Record<string, string>,
  retries = 0,
): Promise<Delivered> => {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.ok || attempt > retries) return { status: res.status, body: parsed, attempts: attempt };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};
