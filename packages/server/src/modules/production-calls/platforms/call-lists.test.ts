import { describe, expect, it } from 'vitest';
import {
  elevenLabsTranscription,
  retellEvent,
  twilioCallback,
  vapiReport,
} from '../../../../test/doubles/platform-deliveries.js';
import { LIST_PAGE_SIZE, type ListRequest } from './incoming.js';
import { CALL_LISTS } from './index.js';

const API = 'https://api.example.test';
const SECRETS = { secret: 'key_1', public_key: 'AC1', ingest_token: null, api_key: 'xi_1' };
const FROM = new Date('2026-11-28T00:00:00.000Z');
const at = (minutes: number) => new Date(FROM.getTime() + minutes * 60_000);

const { vapi, retell, twilio, elevenlabs } = CALL_LISTS;

/** A Vapi call as `GET /call` lists it: the report's call with its artifact and times. */
const vapiCall = (id: string, startedAt: Date, status = 'ended') => {
  const { message } = vapiReport(id, { startedAt });
  return { ...message.call, status, createdAt: message.startedAt, ...message };
};

describe('call lists', () => {
  it('Vapi: ended calls as their report gives them, the earliest call under way, the next page before the oldest', () => {
    const first = vapi.first(API, SECRETS, FROM) as ListRequest;
    expect(first).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer key_1' } });
    expect(new URL(first.url).searchParams.get('createdAtGe')).toBe(FROM.toISOString());
    const items = Array.from({ length: LIST_PAGE_SIZE }, (_, i) => vapiCall(`c${i}`, at(LIST_PAGE_SIZE - i)));
    items[3] = vapiCall('c3', at(50), 'in-progress');
    items[4] = vapiCall('c4', at(40), 'queued');
    const page = vapi.page(items, first, API);
    expect(page.calls).toHaveLength(LIST_PAGE_SIZE - 2);
    expect(page.calls[0]).toMatchObject({
      external_call_id: 'c0',
      event: 'polled',
      turns: expect.any(Array),
    });
    expect(page.unfinishedSince).toEqual(at(40));
    expect(new URL(page.next!.url).searchParams.get('createdAtLt')).toBe(at(1).toISOString());
    expect(vapi.page(items.slice(0, 3), first, API).next).toBeNull();
  });

  it('Retell: finished calls (not connected ones too), the next page after the last call', () => {
    const first = retell.first(API, SECRETS, FROM) as ListRequest;
    expect(JSON.parse(first.body!)).toMatchObject({
      filter_criteria: { start_timestamp: { lower_threshold: FROM.getTime() } },
    });
    const calls = Array.from(
      { length: LIST_PAGE_SIZE },
      (_, i) => retellEvent('call_ended', `r${i}`, 'https://x.test/r.wav', { startedAt: at(i) }).call,
    );
    calls[0]!.call_status = 'ongoing';
    calls[1]!.call_status = 'not_connected';
    const page = retell.page(calls, first, API);
    expect(page.calls.map((c) => c.external_call_id)).not.toContain('r0');
    expect(page.calls.map((c) => c.external_call_id)).toContain('r1');
    expect(page.unfinishedSince).toEqual(at(0));
    expect(JSON.parse(page.next?.body ?? '{}')).toMatchObject({
      pagination_key: `r${LIST_PAGE_SIZE - 1}`,
      limit: 100,
    });
    expect(retell.page({ calls: calls.slice(0, 2) }, first, API).next).toBeNull();
  });

  it('Twilio: completed recordings as their callback gives them, needing the Account SID', () => {
    expect(twilio.first(API, { ...SECRETS, public_key: null }, FROM)).toEqual({
      missing: 'The Twilio integration has no Account SID (its public_key).',
    });
    const first = twilio.first(API, SECRETS, FROM) as ListRequest;
    expect(first.url).toBe(
      `${API}/2010-04-01/Accounts/AC1/Recordings.json?DateCreated%3E=2026-11-28T00%3A00%3A00Z&PageSize=100`,
    );
    const recording = (sid: string, status: string) => {
      const callback = twilioCallback('AC1', `CA${sid}`, `RE${sid}`, 'unused', { startedAt: at(5) });
      return {
        sid: callback.RecordingSid,
        account_sid: 'AC1',
        call_sid: callback.CallSid,
        status,
        duration: '3',
        channels: 2,
        start_time: callback.RecordingStartTime,
        date_created: callback.RecordingStartTime,
        uri: `/2010-04-01/Accounts/AC1/Recordings/RE${sid}.json`,
      };
    };
    const page = twilio.page(
      {
        recordings: [recording('1', 'completed'), recording('2', 'processing'), recording('3', 'absent')],
        next_page_uri: '/2010-04-01/Accounts/AC1/Recordings.json?Page=1',
      },
      first,
      API,
    );
    expect(page.calls).toEqual([
      expect.objectContaining({
        external_call_id: 'CA1',
        event: 'polled',
        recording: {
          auth: 'twilio',
          url: `${API}/2010-04-01/Accounts/AC1/Recordings/RE1.wav?RequestedChannels=2`,
          agent_channel: 1,
        },
      }),
    ]);
    expect(page.unfinishedSince).toEqual(new Date(Math.floor(at(5).getTime() / 1000) * 1000));
    expect(page.next?.url).toBe(`${API}/2010-04-01/Accounts/AC1/Recordings.json?Page=1`);
  });

  it('ElevenLabs: finished conversations by id, read one by one with the API key, the next page by cursor', () => {
    expect(elevenlabs.first(API, { ...SECRETS, api_key: null }, FROM)).toEqual({
      missing: 'The ElevenLabs integration has no API key (its api_key).',
    });
    const first = elevenlabs.first(API, SECRETS, FROM) as ListRequest;
    expect(first).toEqual({
      method: 'GET',
      url: `${API}/v1/convai/conversations?call_start_after_unix=${FROM.getTime() / 1000}&page_size=100`,
      headers: { 'xi-api-key': 'xi_1' },
    });
    const summary = (id: string, status: string, minutes: number) => ({
      agent_id: 'agent_1',
      conversation_id: id,
      start_time_unix_secs: at(minutes).getTime() / 1000,
      call_duration_secs: 42,
      status,
    });
    const page = elevenlabs.page(
      {
        conversations: [
          summary('conv_done', 'done', 9),
          summary('conv_failed', 'failed', 8),
          summary('conv_live', 'in-progress', 7),
          summary('conv_analysing', 'processing', 6),
        ],
        has_more: true,
        next_cursor: 'cur_2',
      },
      first,
      API,
    );
    expect(page.calls.map((c) => [c.external_call_id, c.event, c.started_at, c.duration_ms])).toEqual([
      ['conv_done', 'polled', at(9), 42_000],
      ['conv_failed', 'polled', at(8), 42_000],
    ]);
    expect(page.unfinishedSince).toEqual(at(6));
    expect(new URL(page.next!.url).searchParams.get('cursor')).toBe('cur_2');
    expect(page.next?.headers).toEqual({ 'xi-api-key': 'xi_1' });
    expect(
      elevenlabs.page({ conversations: [], has_more: false, next_cursor: null }, first, API).next,
    ).toBeNull();
    const detail = elevenlabs.detail!;
    expect(detail.request(API, SECRETS, 'conv/1')).toEqual({
      method: 'GET',
      url: `${API}/v1/convai/conversations/conv%2F1`,
      headers: { 'xi-api-key': 'xi_1' },
    });
    const { data } = elevenLabsTranscription('conv_done');
    expect(detail.parse(data)).toMatchObject({
      external_call_id: 'conv_done',
      event: 'polled',
      duration_ms: 42_000,
      turns: [{ speaker: 'agent' }, { speaker: 'user' }],
      recording: { auth: 'elevenlabs', conversation_id: 'conv_done', agent_channel: 0 },
    });
    expect(detail.parse({ ...data, has_audio: false })).toMatchObject({ recording: null });
    expect(detail.parse({ status: 'done' })).toEqual({ ignored: 'The event names no conversation.' });
  });
});
