import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback doubles of the voice-agent platforms that push finished calls: each builds the body its
 * platform sends (the shapes of the platforms' SDK types), signs it by the platform's scheme (with
 * node's crypto, apart from the server's verifiers), delivers it as the platform does (Retell retries
 * a non-2xx three times; Vapi and ElevenLabs do not), and serves recordings behind the platform's
 * auth: Vapi's recording API (Bearer private key, then a 302 to a short-lived file URL), Twilio's
 * media URLs (Basic `AccountSid:AuthToken`, `.wav`, `RequestedChannels`), and Retell's public URLs,
 * which expire. Its list APIs (Vapi `GET /call`, Retell `POST /v3/list-calls`, Twilio
 * `Recordings.json`, ElevenLabs `GET /v1/convai/conversations` and each conversation with its audio)
 * answer the calls a test listed, filtered by the request's time window and paged as the platform
 * pages, behind the platform's auth.
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
   * `key`), ElevenLabs' conversations (`xi-api-key: key`), Twilio `GET /2010-04-01/Accounts/<sid>.json` and its `Recordings.json` (Basic
   * `sid:token`). They list what `listVapi`, `listRetell` and `listTwilio` registered.
   */
  accept(platform: 'vapi' | 'retell' | 'elevenlabs', key: string): void;
  acceptTwilio(accountSid: string, authToken: string): void;
  /**
   * Lists a Vapi call on `GET /call` for `privateKey` (accepting it): the call of an end-of-call
   * report (`vapiReport`), as Vapi's API returns it, created when it started.
   */
  listVapi(privateKey: string, report: { message: Record<string, any> }): void;
  /** Lists a Retell call (the `call` of a `retellEvent`) on `POST /v3/list-calls` for `apiKey` (accepting it). */
  listRetell(apiKey: string, event: { call: Record<string, any> }): void;
  /**
   * Lists the recording a status callback announces (`twilioCallback`) on the account's
   * `Recordings.json`, with its credentials (accepting them); created when it started.
   */
  listTwilio(accountSid: string, authToken: string, callback: Record<string, string>): void;
  /**
   * Lists an ElevenLabs conversation (the `data` of a `post_call_transcription`) for `apiKey`
   * (`xi-api-key`, accepted from now): a summary on `GET /v1/convai/conversations`, the whole
   * conversation on `GET /v1/convai/conversations/<id>`, and `audio` (an MP3, as ElevenLabs
   * serves it) on `.../<id>/audio`. The conversation is the caller's object: changing its `status`
   * changes what is listed.
   */
  listElevenLabs(apiKey: string, event: { data: Record<string, any> }, audio?: Buffer): void;
  /** Requests the double answered, by path (query excluded), with their status and credential. */
  readonly served: Array<{
    path: string;
    status: number;
    authorization: string | undefined;
    apiKey: string | undefined;
  }>;
  close(): Promise<void>;
}

const basicOf = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const readJson = async (req: IncomingMessage): Promise<Record<string, any>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
};

const newestFirst = <T>(items: T[], time: (item: T) => number) =>
  [...items].sort((a, b) => time(b) - time(a));

/** Vapi's `GET /call`: newest first, filtered by `createdAt{Gt,Ge,Lt,Le}`, `limit` of them. */
const vapiPage = (calls: any[], query: URLSearchParams) => {
  const at = (call: any) => Date.parse(call.createdAt);
  const bound = (name: string) => (query.has(name) ? Date.parse(query.get(name)!) : null);
  const [gt, ge, lt, le] = ['createdAtGt', 'createdAtGe', 'createdAtLt', 'createdAtLe'].map(bound);
  const kept = calls.filter(
    (call) =>
      (gt === null || at(call) > gt!) &&
      (ge === null || at(call) >= ge!) &&
      (lt === null || at(call) < lt!) &&
      (le === null || at(call) <= le!),
  );
  return newestFirst(kept, at).slice(0, Number(query.get('limit') ?? 100));
};

/** Retell's `POST /v3/list-calls`: by `start_timestamp` thresholds, newest first, after `pagination_key`. */
const retellPage = (calls: any[], body: Record<string, any>) => {
  const range = body.filter_criteria?.start_timestamp ?? {};
  const kept = newestFirst(
    calls.filter(
      (call) =>
        (range.lower_threshold === undefined || call.start_timestamp >= range.lower_threshold) &&
        (range.upper_threshold === undefined || call.start_timestamp <= range.upper_threshold),
    ),
    (call) => call.start_timestamp,
  );
  const after = body.pagination_key ? kept.findIndex((call) => call.call_id === body.pagination_key) + 1 : 0;
  return kept.slice(after, after + Number(body.limit ?? 1000));
};

/**
 * ElevenLabs' `GET /v1/convai/conversations`: started after `call_start_after_unix`, newest first,
 * `page_size` of them, `next_cursor` (opaque: here the offset) while `has_more`.
 */
const elevenLabsPage = (conversations: any[], query: URLSearchParams) => {
  const after = query.has('call_start_after_unix') ? Number(query.get('call_start_after_unix')) : null;
  const kept = newestFirst(
    conversations.filter((c) => after === null || c.metadata.start_time_unix_secs > after),
    (c) => c.metadata.start_time_unix_secs,
  );
  const size = Number(query.get('page_size') ?? 30);
  const offset = query.has('cursor') ? Number(Buffer.from(query.get('cursor')!, 'base64url')) : 0;
  const page = kept.slice(offset, offset + size);
  const more = offset + size < kept.length;
  return {
    conversations: page.map((c) => ({
      agent_id: c.agent_id,
      agent_name: 'Clinic',
      conversation_id: c.conversation_id,
      start_time_unix_secs: c.metadata.start_time_unix_secs,
      call_duration_secs: c.metadata.call_duration_secs,
      message_count: c.transcript?.length ?? 0,
      status: c.status,
      call_successful: c.analysis?.call_successful ?? 'unknown',
    })),
    has_more: more,
    next_cursor: more ? Buffer.from(String(offset + size)).toString('base64url') : null,
  };
};

/** Twilio's `Recordings.json`: created at or after `DateCreated>`, newest first, pages of `PageSize`. */
const twilioPage = (recordings: any[], url: URL) => {
  const since = url.searchParams.get('DateCreated>');
  const at = (recording: any) => Date.parse(recording.date_created);
  const kept = newestFirst(
    recordings.filter((recording) => since === null || at(recording) >= Date.parse(since)),
    at,
  );
  const size = Number(url.searchParams.get('PageSize') ?? 50);
  const page = Number(url.searchParams.get('Page') ?? 0);
  const next = new URLSearchParams(url.searchParams);
  next.set('Page', String(page + 1));
  return {
    recordings: kept.slice(page * size, (page + 1) * size),
    page,
    page_size: size,
    next_page_uri: (page + 1) * size < kept.length ? `${url.pathname}?${next}` : null,
  };
};

export async function startPlatformsDouble(): Promise<PlatformsDouble> {
  const files = new Map<string, { bytes: Buffer; expiresAt: number }>();
  const vapi = new Map<string, { key: string; file: string }>();
  const twilio = new Map<string, { basic: string; file: string; bytes: Buffer }>();
  const served: PlatformsDouble['served'] = [];
  const holds = new Map<string, { left: number; held: number }>();
  const bearers = { vapi: new Set<string>(), retell: new Set<string>() };
  const accounts = new Map<string, string>();
  const listed = {
    vapi: new Map<string, any[]>(),
    retell: new Map<string, any[]>(),
    twilio: new Map<string, any[]>(),
    elevenlabs: new Map<string, any[]>(),
  };
  const elevenLabsAudio = new Map<string, { key: string; bytes: Buffer }>();
  const listOf = (platform: keyof typeof listed, key: string) => {
    if (!listed[platform].has(key)) listed[platform].set(key, []);
    return listed[platform].get(key)!;
  };
  // two origins, as the platforms have: the API, and the storage its redirects point at
  let storageUrl = '';
  const handler: Parameters<typeof createServer>[1] = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const answer = (status: number, body: Buffer | string = '', headers: Record<string, string> = {}) => {
      const apiKey = req.headers['xi-api-key'] as string | undefined;
      served.push({ path: url.pathname, status, authorization: req.headers.authorization, apiKey });
      res.writeHead(status, headers).end(body);
    };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const conversation = /^\/v1\/convai\/conversations(?:\/([^/]+)(\/audio)?)?$/.exec(url.pathname);
    if (req.method === 'GET' && conversation) {
      const xiKey = (req.headers['xi-api-key'] as string | undefined) ?? '';
      if (!listed.elevenlabs.has(xiKey))
        return answer(401, '{"detail":{"status":"invalid_api_key","message":"Invalid API key"}}');
      const conversations = listOf('elevenlabs', xiKey);
      if (!conversation[1])
        return answer(200, JSON.stringify(elevenLabsPage(conversations, url.searchParams)));
      const id = decodeURIComponent(conversation[1]);
      const found = conversations.find((c) => c.conversation_id === id);
      if (!found) return answer(404, '{"detail":{"status":"conversation_not_found"}}');
      if (!conversation[2]) return answer(200, JSON.stringify(found));
      const audio = elevenLabsAudio.get(id);
      return audio && audio.key === xiKey
        ? answer(200, audio.bytes, { 'content-type': 'audio/mpeg' })
        : answer(404, '{"detail":{"status":"conversation_has_no_audio"}}');
    }
    if (req.method === 'GET' && url.pathname === '/call') {
      if (!bearers.vapi.has(bearer)) return answer(401, '{"message":"Invalid Key"}');
      return answer(200, JSON.stringify(vapiPage(listOf('vapi', bearer), url.searchParams)));
    }
    if (req.method === 'POST' && url.pathname === '/v3/list-calls') {
      if (!bearers.retell.has(bearer)) return answer(401, '{"error_message":"Unauthorized"}');
      return void readJson(req).then((body) =>
        answer(200, JSON.stringify(retellPage(listOf('retell', bearer), body))),
      );
    }
    const recordings = /^\/2010-04-01\/Accounts\/([^/.]+)\/Recordings\.json$/.exec(url.pathname);
    if (req.method === 'GET' && recordings) {
      const sid = recordings[1]!;
      const token = accounts.get(sid);
      if (!token || req.headers.authorization !== basicOf(sid, token))
        return answer(401, '{"code":20003,"message":"Authenticate"}');
      return answer(200, JSON.stringify(twilioPage(listOf('twilio', sid), url)));
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
      if (platform === 'elevenlabs') listOf('elevenlabs', key);
      else bearers[platform].add(key);
    },
    acceptTwilio(accountSid, authToken) {
      accounts.set(accountSid, authToken);
    },
    listVapi(privateKey, { message }) {
      bearers.vapi.add(privateKey);
      const { artifact, analysis, startedAt, endedAt, endedReason, cost } = message;
      listOf('vapi', privateKey).push({
        createdAt: startedAt,
        ...message.call,
        startedAt,
        endedAt,
        endedReason,
        cost,
        artifact,
        analysis,
      });
    },
    listRetell(apiKey, { call }) {
      bearers.retell.add(apiKey);
      listOf('retell', apiKey).push(call);
    },
    listElevenLabs(apiKey, { data }, audio) {
      listOf('elevenlabs', apiKey).push(data);
      if (audio) elevenLabsAudio.set(data.conversation_id, { key: apiKey, bytes: audio });
    },
    listTwilio(accountSid, authToken, callback) {
      accounts.set(accountSid, authToken);
      listOf('twilio', accountSid).push({
        sid: callback.RecordingSid,
        account_sid: callback.AccountSid,
        call_sid: callback.CallSid,
        status: callback.RecordingStatus,
        duration: callback.RecordingDuration,
        channels: Number(callback.RecordingChannels),
        source: callback.RecordingSource,
        start_time: callback.RecordingStartTime,
        date_created: callback.RecordingStartTime,
        uri: `/2010-04-01/Accounts/${accountSid}/Recordings/${callback.RecordingSid}.json`,
      });
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
