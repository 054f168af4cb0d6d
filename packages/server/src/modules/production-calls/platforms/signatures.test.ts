import { describe, expect, it } from 'vitest';
import { hmac } from './hmac.js';
import type { Delivery, IngestSecrets } from './incoming.js';
import { PLATFORMS } from './index.js';
import { twilioSignature } from './twilio.js';

// The vectors: Twilio's from twilio-node's own validation spec; the others computed independently
// (Python hmac/hashlib) from each platform's documented scheme.

const delivery = (
  body: string | Record<string, unknown>,
  headers: Record<string, string>,
  url = 'https://x.test/',
): Delivery => ({
  rawBody: Buffer.from(typeof body === 'string' ? body : ''),
  header: (name) => headers[name.toLowerCase()],
  url,
  body: typeof body === 'string' ? JSON.parse(body) : body,
});
const secrets = (secret: string, more: Partial<IngestSecrets> = {}): IngestSecrets => ({
  secret,
  public_key: null,
  ingest_token: null,
  api_key: null,
  ...more,
});

describe('Retell signature', () => {
  const body = '{"event":"call_ended","call":{"call_id":"call_test_1","agent_id":"agent_test_1"}}';
  const header = 'v=1760520150123,d=8e7bd05fc3a7f14db0ff4856f1398bfcf18f2508ccb9d8e326084b0f19f50168';
  const at = new Date(1760520150123 + 60_000);

  it('accepts the vector within five minutes', () => {
    expect(
      PLATFORMS.retell.verify(
        delivery(body, { 'x-retell-signature': header }),
        secrets('key_test_retell'),
        at,
      ),
    ).toEqual({ ok: true });
  });
  it('refuses a stale timestamp, a tampered body, another key and a plain HMAC of the body', () => {
    const late = new Date(1760520150123 + 5 * 60_000 + 1);
    expect(
      PLATFORMS.retell.verify(
        delivery(body, { 'x-retell-signature': header }),
        secrets('key_test_retell'),
        late,
      ).ok,
    ).toBe(false);
    const tampered = body.replace('call_test_1', 'call_test_2');
    expect(
      PLATFORMS.retell.verify(
        delivery(tampered, { 'x-retell-signature': header }),
        secrets('key_test_retell'),
        at,
      ).ok,
    ).toBe(false);
    expect(
      PLATFORMS.retell.verify(delivery(body, { 'x-retell-signature': header }), secrets('key_other'), at).ok,
    ).toBe(false);
    const plain = `v=1760520150123,d=${hmac('sha256', 'key_test_retell', body)}`;
    expect(
      PLATFORMS.retell.verify(delivery(body, { 'x-retell-signature': plain }), secrets('key_test_retell'), at)
        .ok,
    ).toBe(false);
    expect(PLATFORMS.retell.verify(delivery(body, {}), secrets('key_test_retell'), at)).toEqual({
      ok: false,
      reason: 'X-Retell-Signature is missing or malformed.',
    });
  });
});

describe('ElevenLabs signature', () => {
  const body =
    '{"type":"post_call_transcription","event_timestamp":1760520150,"data":{"agent_id":"agent_test","conversation_id":"conv_test"}}';
  const header = 't=1760520150,v0=bb64fe9c8d07374247bcf42b7eb1e1468a62504335f008e2f21a027fc61cf053';

  it('accepts the vector within 30 minutes and refuses it after', () => {
    const ok = PLATFORMS.elevenlabs.verify(
      delivery(body, { 'elevenlabs-signature': header }),
      secrets('wsec_test_elevenlabs'),
      new Date(1760520150_000 + 29 * 60_000),
    );
    expect(ok).toEqual({ ok: true });
    const stale = PLATFORMS.elevenlabs.verify(
      delivery(body, { 'elevenlabs-signature': header }),
      secrets('wsec_test_elevenlabs'),
      new Date(1760520150_000 + 31 * 60_000),
    );
    expect(stale.ok).toBe(false);
  });
  it('refuses another secret and a tampered body', () => {
    const at = new Date(1760520150_000);
    expect(
      PLATFORMS.elevenlabs.verify(
        delivery(body, { 'elevenlabs-signature': header }),
        secrets('wsec_other'),
        at,
      ).ok,
    ).toBe(false);
    expect(
      PLATFORMS.elevenlabs.verify(
        delivery(body.replace('conv_test', 'conv_x'), { 'elevenlabs-signature': header }),
        secrets('wsec_test_elevenlabs'),
        at,
      ).ok,
    ).toBe(false);
  });
});

describe('Vapi credential', () => {
  const body = '{"message":{"type":"end-of-call-report"}}';
  const token = secrets('private-key', { ingest_token: 'vapi_test_secret' });
  const at = new Date(1760520150123);

  it('accepts the HMAC vector (default plan: hex HMAC-SHA256 of "{timestamp}.{body}")', () => {
    const headers = {
      'x-timestamp': '1760520150123',
      'x-signature': '412d290d89e4012c94c19b75d4d6a9cc810957360917a29bcbf583527dbb92a6',
    };
    expect(PLATFORMS.vapi.verify(delivery(body, headers), token, at)).toEqual({ ok: true });
    expect(PLATFORMS.vapi.verify(delivery(body, headers), token, new Date(at.getTime() + 301_000)).ok).toBe(
      false,
    );
  });
  it('accepts the token as X-Vapi-Secret or a bearer token, and refuses another', () => {
    expect(PLATFORMS.vapi.verify(delivery(body, { 'x-vapi-secret': 'vapi_test_secret' }), token, at)).toEqual(
      { ok: true },
    );
    expect(
      PLATFORMS.vapi.verify(delivery(body, { authorization: 'Bearer vapi_test_secret' }), token, at),
    ).toEqual({ ok: true });
    expect(PLATFORMS.vapi.verify(delivery(body, { 'x-vapi-secret': 'vapi_test_secreT' }), token, at).ok).toBe(
      false,
    );
    expect(PLATFORMS.vapi.verify(delivery(body, {}), token, at).ok).toBe(false);
  });
});

describe('Twilio signature', () => {
  it("reproduces twilio-node's vector", () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });

  const params = {
    AccountSid: 'AC00000000000000000000000000000000',
    CallSid: 'CA00000000000000000000000000000001',
    RecordingSid: 'RE00000000000000000000000000000001',
    RecordingUrl:
      'https://api.twilio.com/2010-04-01/Accounts/AC00000000000000000000000000000000/Recordings/RE00000000000000000000000000000001',
    RecordingStatus: 'completed',
    RecordingDuration: '42',
    RecordingChannels: '2',
    RecordingSource: 'StartCallRecordingAPI',
    RecordingStartTime: 'Wed, 15 Oct 2025 09:22:21 +0000',
  };
  const url = 'https://loopback.test/v1/ingest/twilio/int_123/recording-status';

  it('accepts a recording callback signed over the URL, with or without the default port', () => {
    const header = { 'x-twilio-signature': 'cJpR0WkMKv0xxP9NWd5WZ8OsfMY=' };
    const account = secrets('test_auth_token', { public_key: params.AccountSid });
    expect(PLATFORMS.twilio.verify(delivery(params, header, url), account, new Date())).toEqual({ ok: true });
    const withPort = 'https://loopback.test:443/v1/ingest/twilio/int_123/recording-status';
    expect(PLATFORMS.twilio.verify(delivery(params, header, withPort), account, new Date())).toEqual({
      ok: true,
    });
  });
  it('refuses another URL, a changed parameter and another account', () => {
    const header = { 'x-twilio-signature': 'cJpR0WkMKv0xxP9NWd5WZ8OsfMY=' };
    const account = secrets('test_auth_token');
    expect(PLATFORMS.twilio.verify(delivery(params, header, `${url}x`), account, new Date()).ok).toBe(false);
    expect(
      PLATFORMS.twilio.verify(
        delivery({ ...params, RecordingDuration: '43' }, header, url),
        account,
        new Date(),
      ).ok,
    ).toBe(false);
    const other = secrets('test_auth_token', { public_key: 'AC00000000000000000000000000000009' });
    expect(PLATFORMS.twilio.verify(delivery(params, header, url), other, new Date())).toEqual({
      ok: false,
      reason: "The callback is for another account than the integration's.",
    });
  });
});
