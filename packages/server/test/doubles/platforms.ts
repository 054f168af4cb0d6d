import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback doubles of the voice-agent platforms that push finished calls: each builds the body its
 * platform sends (the shapes of the platforms' SDK types), signs it by the platform's scheme (with
 * node's crypto, apart from the server's verifiers), delivers it as the platform does (Retell retries
 * a non-2xx three times; Vapi and ElevenLabs do not), and serves recordings behind the platform's
 * auth: Vapi's recording API (Bearer private key, then a 302 to a short-lived file URL), Twilio's
 * media URLs (Basic `AccountSid:AuthToken`, `.wav`, `RequestedChannels`), and Retell's public URLs,
 * which expire.
 */
export interface PlatformsDouble {
  /** `http://127.0.0.1:<port>`: Vapi's API base as well. Recordings' files are on another origin. */
  url: string;
  /** Serves `bytes` as a Vapi call's recording (`/call/<id>/stereo-recording` with the private key). */
  vapiRecording(callId: string, privateKey: string, bytes: Buffer): void;
  /** Serves `bytes` as a Twilio recording; returns its `RecordingUrl` (without extension). */
  twilioRecording(accountSid: string, authToken: string, recordingSid: string, bytes: Buffer): string;
  /** Serves `bytes` publicly at a URL that stops answering after `ttlMs`; returns the URL. */
  publicRecording(name: string, bytes: Buffer, ttlMs?: number): string;
  /** The next `count` fetches of a public recording never answer (a platform stalled mid-download). */
  holdNext(name: string, count?: number): void;
  /** How many fetches of a public recording were held so far. */
  held(name: string): number;
  /**
   * A credential the list APIs accept: Vapi `GET /call` and Retell `POST /v3/list-calls` (Bearer
   * `key`), Twilio `GET /2010-04-01/Accounts/<sid>.json` (Basic `sid:token`).
   */
  accept(platform: 'vapi' | 'retell', key: string): void;
  acceptTwilio(accountSid: string, authToken: string): void;
  /** Requests the double answered, by path (query excluded), with their status. */
  readonly served: Array<{ path: string; status: number; authorization: string | undefined }>;
  close(): Promise<void>;
}

export async function startPlatformsDouble(): Promise<PlatformsDouble> {
  const files = new Map<string, { bytes: Buffer; expiresAt: number }>();
  const vapi = new Map<string, { key: string; file: string }>();
  const twilio = new Map<string, { basic: string; file: string; bytes: Buffer }>();
  const served: PlatformsDouble['served'] = [];
  const holds = new Map<string, { left: number; held: number }>();
  const bearers = { vapi: new Set<string>(), retell: new Set<string>() };
  const accounts = new Map<string, string>();
  // two origins, as the platforms have: the API, and the storage its redirects point at
  let storageUrl = '';
  const handler: Parameters<typeof createServer>[1] = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const answer = (status: number, body: Buffer | string = '', headers: Record<string, string> = {}) => {
      served.push({ path: url.pathname, status, authorization: req.headers.authorization });
      res.writeHead(status, headers).end(body);
    };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (req.method === 'GET' && url.pathname === '/call') {
      return bearers.vapi.has(bearer) ? answer(200, '[]') : answer(401, '{"message":"Invalid Key"}');
    }
    if (req.method === 'POST' && url.pathname === '/v3/list-calls') {
      return bearers.retell.has(bearer) ? answer(200, '[]') : answer(401, '{"error_message":"Unauthorized"}');
    }
    const account = /^\/2010-04-01\/Accounts\/([^/.]+)\.json$/.exec(url.pathname);
    if (account) {
      const token = accounts.get(account[1]!);
      const basic = token && `Basic ${Buffer.from(`${account[1]}:${token}`).toString('base64')}`;
      return basic && req.headers.authorization === basic
        ? answer(200, JSON.stringify({ sid: account[1], status: 'active' }))
        : answer(401, '{"code":20003,"message":"Authenticate"}');
    }
    const vapiMatch = /^\/call\/([^/]+)\/stereo-recording$/.exec(url.pathname);
    if (vapiMatch) {
      const entry = vapi.get(decodeURIComponent(vapiMatch[1]!));
      if (!entry) return answer(404, '{"message":"Not Found"}');
      if (req.headers.authorization !== `Bearer ${entry.key}`)
        return answer(401, '{"message":"Unauthorized"}');
      return answer(302, '', { location: `${storageUrl}/files/${entry.file}` });
    }
    const twilioMatch = /^\/2010-04-01\/Accounts\/[^/]+\/Recordings\/([^/.]+)\.wav$/.exec(url.pathname);
    if (twilioMatch) {
      const entry = twilio.get(twilioMatch[1]!);
      if (!entry) return answer(404);
      if (req.headers.authorization !== `Basic ${entry.basic}`) return answer(401);
      if (url.searchParams.get('RequestedChannels') !== '2')
        return answer(400, 'the double serves dual-channel only');
      return answer(200, entry.bytes, { 'content-type': 'audio/x-wav' });
    }
    const fileMatch = /^\/files\/(.+)$/.exec(url.pathname);
    if (fileMatch) {
      const hold = holds.get(fileMatch[1]!);
      if (hold && hold.left > 0) {
        hold.left--;
        hold.held++;
        return; // the connection stays open, unanswered
      }
      const file = files.get(fileMatch[1]!);
      if (!file || Date.now() > file.expiresAt) return answer(403, 'AccessDenied: Request has expired');
      return answer(200, file.bytes, { 'content-type': 'audio/wav' });
    }
    answer(404);
  };
  const listen = async () => {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const api = await listen();
  const storage = await listen();
  storageUrl = storage.url;
  const url = api.url;
  return {
    url,
    served,
    vapiRecording(callId, privateKey, bytes) {
      const file = `vapi-${callId}-stereo.wav`;
      // the redirect target is short-lived, as Vapi's signed bucket URLs are
      files.set(file, { bytes, expiresAt: Date.now() + 60_000 });
      vapi.set(callId, { key: privateKey, file });
    },
    twilioRecording(accountSid, authToken, recordingSid, bytes) {
      twilio.set(recordingSid, {
        basic: Buffer.from(`${accountSid}:${authToken}`).toString('base64'),
        file: recordingSid,
        bytes,
      });
      return `${url}/2010-04-01/Accounts/${accountSid}/Recordings/${recordingSid}`;
    },
    publicRecording(name, bytes, ttlMs = 10 * 60_000) {
      files.set(name, { bytes, expiresAt: Date.now() + ttlMs });
      return `${storageUrl}/files/${name}`;
    },
    accept(platform, key) {
      bearers[platform].add(key);
    },
    acceptTwilio(accountSid, authToken) {
      accounts.set(accountSid, authToken);
    },
    holdNext(name, count = 1) {
      holds.set(name, { left: count, held: holds.get(name)?.held ?? 0 });
    },
    held: (name) => holds.get(name)?.held ?? 0,
    close: async () => {
      for (const { server } of [api, storage])
        await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- bodies, as each platform sends them ----

/** A Vapi `end-of-call-report` with two spoken turns (and a system prompt and a tool call, dropped). */
export const vapiReport = (callId: string, options: { stereo?: boolean } = {}) => ({
  message: {
    type: 'end-of-call-report',
    timestamp: 1760520270300,
    endedReason: 'customer-ended-call',
    startedAt: '2025-10-15T09:22:21.787Z',
    endedAt: '2025-10-15T09:24:30.229Z',
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

/** A Retell call event (`call_ended`, or `call_analyzed` with its analysis). */
export const retellEvent = (
  event: 'call_ended' | 'call_analyzed' | 'call_started',
  callId: string,
  recordingUrl: string,
) => ({
  event,
  call: {
    call_type: 'phone_call',
    call_id: callId,
    agent_id: 'oBeDLoLOeuAbiuaMFXRtDOLriTJ5tSxD',
    agent_version: 3,
    call_status: 'ended',
    direction: 'inbound',
    start_timestamp: 1714608475945,
    end_timestamp: 1714608491736,
    duration_ms: 15791,
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

/** An ElevenLabs `post_call_transcription`. */
export const elevenLabsTranscription = (conversationId: string) => ({
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
      start_time_unix_secs: 1760520100,
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

/** A Twilio recording status callback's form parameters. */
export const twilioCallback = (
  accountSid: string,
  callSid: string,
  recordingSid: string,
  recordingUrl: string,
) => ({
  AccountSid: accountSid,
  CallSid: callSid,
  RecordingSid: recordingSid,
  RecordingUrl: recordingUrl,
  RecordingStatus: 'completed',
  RecordingDuration: '3',
  RecordingChannels: '2',
  RecordingSource: 'StartCallRecordingAPI',
  RecordingStartTime: 'Wed, 15 Oct 2025 09:22:21 +0000',
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
