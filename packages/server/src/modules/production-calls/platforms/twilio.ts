import { equalText } from '../../../crypto/equal-text.js';
import { hmac } from './hmac.js';
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
  obj,
  type Platform,
  POLLED_EVENT,
  str,
} from './incoming.js';

/**
 * Twilio's signature of a form-encoded request: base64 HMAC-SHA1, keyed with the account's auth
 * token, of the full URL followed by every parameter's name and value, sorted by name.
 */
export const twilioSignature = (authToken: string, url: string, params: Record<string, unknown>): string => {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    const values = Array.isArray(value) ? [...new Set(value.map(String))].sort() : [String(value ?? '')];
    for (const v of values) data += key + v;
  }
  return hmac('sha1', authToken, Buffer.from(data, 'utf8'), 'base64');
};

/**
 * The spellings of the URL Twilio may have signed: as called, and with the scheme's default port
 * added or removed (Twilio's own validator accepts each).
 */
const urlVariants = (raw: string): string[] => {
  const url = new URL(raw);
  const port = url.protocol === 'https:' ? '443' : '80';
  const withPort = `${url.protocol}//${url.hostname}:${url.port || port}${url.pathname}${url.search}`;
  const withoutPort =
    url.port === port || url.port === ''
      ? `${url.protocol}//${url.hostname}${url.pathname}${url.search}`
      : raw;
  return [...new Set([raw, withPort, withoutPort])];
};

/** `X-Twilio-Signature` over the public URL Twilio called and the form parameters. */
const verify: Platform['verify'] = (delivery, secrets) => {
  const given = delivery.header('x-twilio-signature');
  if (!given) return { ok: false, reason: 'X-Twilio-Signature is missing.' };
  const accepted = urlVariants(delivery.url).some((url) =>
    equalText(given, twilioSignature(secrets.secret, url, delivery.body)),
  );
  if (!accepted) return { ok: false, reason: 'The signature does not match this URL and body.' };
  if (secrets.public_key && delivery.body.AccountSid !== secrets.public_key)
    return { ok: false, reason: "The callback is for another account than the integration's." };
  return { ok: true };
};

/**
 * A recording status callback with `RecordingStatus=completed` (others are ignored): the call is
 * its `CallSid`, and its dual-channel WAV is fetched with the account's credentials. Twilio sends
 * no transcript, so the recording is transcribed by channel. We take the right channel as the
 * agent's, the order Twilio documents for Flex (customer left, agent right).
 */
const parse = (body: Record<string, unknown>): IncomingCall | Ignored => {
  const status = str(body.RecordingStatus) ?? 'unknown';
  if (status !== 'completed') return { ignored: `Recording status "${status}" carries no recording.` };
  const callSid = str(body.CallSid);
  const recordingUrl = str(body.RecordingUrl);
  if (!callSid || !recordingUrl) return { ignored: 'The callback names no call or recording.' };
  const started = dateOf(str(body.RecordingStartTime));
  const duration = msOf(body.RecordingDuration);
  const twoChannels = str(body.RecordingChannels) === '2';
  return {
    external_call_id: callSid,
    event: 'recording-completed',
    started_at: started,
    ended_at: started && duration !== null ? new Date(started.getTime() + duration) : null,
    duration_ms: duration,
    end_reason: null,
    turns: null,
    recording: {
      auth: 'twilio',
      url: `${recordingUrl}.wav${twoChannels ? '?RequestedChannels=2' : ''}`,
      agent_channel: twoChannels ? 1 : 0,
    },
    audio: null,
    metadata: flat({
      twilio_recording_sid: body.RecordingSid ?? null,
      recording_channels: body.RecordingChannels ?? null,
      recording_source: body.RecordingSource ?? null,
    }),
  };
};

export const twilio: Platform = { verify, parse };

/** Recording statuses of a recording not yet done: it may still become `completed`. */
const UNDER_WAY = new Set(['in-progress', 'paused', 'stopped', 'processing']);

/** A recording of Twilio's Recordings list as the status callback that would have announced it. */
const callbackOf = (recording: Record<string, unknown>, apiUrl: string) => ({
  AccountSid: recording.account_sid,
  CallSid: recording.call_sid,
  RecordingSid: recording.sid,
  // the media URL is the resource's URI without its `.json`, on the API's origin
  RecordingUrl: str(recording.uri) ? `${apiUrl}${str(recording.uri)!.replace(/\.json$/, '')}` : null,
  RecordingStatus: recording.status,
  RecordingDuration: recording.duration,
  RecordingChannels: recording.channels === undefined ? undefined : String(recording.channels),
  RecordingSource: recording.source,
  RecordingStartTime: recording.start_time,
});

/**
 * The account's recordings (`GET /2010-04-01/Accounts/{sid}/Recordings.json`, Basic
 * `AccountSid:AuthToken`) created since the window's start, newest first: each completed one is
 * the call its status callback would have landed; those still recording or processing hold the
 * next poll's start back. Pages follow `next_page_uri`.
 */
export const twilioRecordings: CallList = {
  first: (apiUrl, secrets, from) => {
    const sid = secrets.public_key;
    if (!sid) return { missing: 'The Twilio integration has no Account SID (its public_key).' };
    // `DateCreated>=` as Twilio spells it, in whole seconds as its helper libraries send it
    const query = new URLSearchParams({
      'DateCreated>': from.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      PageSize: String(LIST_PAGE_SIZE),
    });
    return {
      method: 'GET',
      url: `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Recordings.json?${query}`,
      headers: { authorization: `Basic ${Buffer.from(`${sid}:${secrets.secret}`).toString('base64')}` },
    };
  },
  page: (body, request, apiUrl) => {
    const listed = obj(body);
    const items = Array.isArray(listed.recordings) ? listed.recordings.map(obj) : [];
    const page: ListedPage = { calls: [], unfinishedSince: null, next: null };
    for (const recording of items) {
      if (UNDER_WAY.has(str(recording.status) ?? '')) {
        page.unfinishedSince = earliest(page.unfinishedSince, dateOf(str(recording.date_created)));
        continue;
      }
      const parsed = parse(callbackOf(recording, apiUrl));
      if (!('ignored' in parsed)) page.calls.push({ ...parsed, event: POLLED_EVENT });
    }
    const next = str(listed.next_page_uri);
    if (next && items.length > 0) page.next = { ...request, url: `${apiUrl}${next}` };
    return page;
  },
};
