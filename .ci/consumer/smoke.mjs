// ESM smoke test of the packed packages: the SDK against the MSW mocks, then against the real
// server (embedded PGlite) started from @voice-eval/server: signup, API key, create and get a metric.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract } from '@voice-eval/contract';
import { NotFoundError, VoiceEval, verifyWebhook } from '@voice-eval/sdk';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { createVoiceEvalServer } from '@voice-eval/server';
import { setupServer } from 'msw/node';

const check = (ok, message) => {
  if (!ok) throw new Error(`smoke.mjs: ${message}`);
};

const mocks = createVoiceEvalMocks();
const msw = setupServer(...mocks.handlers);
msw.listen({ onUnhandledRequest: 'error' });
const mocked = new VoiceEval({ baseUrl: 'https://api.voice-eval.test', apiKey: 'k', logLevel: 'off' });
const tag = await mocked.tags.create({ name: 'smoke' });
const missing = await mocked.tags.delete('00000000-0000-4000-8000-0000000000ff').catch((e) => e);
msw.close();
check(tag.name === 'smoke' && missing instanceof NotFoundError, 'the mocks answer the SDK');
check(contract.metrics.create.method === 'POST', 'the contract loads');

const server = createVoiceEvalServer({
  dataDir: mkdtempSync(join(tmpdir(), 'voice-eval-consumer-')),
  env: {},
  logLevel: 'warn',
});
const { url } = await server.listen(0);
try {
  const anonymous = new VoiceEval({ baseUrl: url, logLevel: 'off' });
  const session = await anonymous.auth.signup({ email: 'ada@example.com', password: 'a long password' });
  const user = new VoiceEval({ baseUrl: url, accessToken: session.access_token, logLevel: 'off' });
  const { key } = await user.auth.generateKey({ name: 'smoke' });
  const client = new VoiceEval({ baseUrl: url, apiKey: key, logLevel: 'off' });
  const metric = await client.metrics.create({ name: 'Resolved', metric_type: 'boolean' });
  const got = await client.metrics.get(metric.id);
  check(got.id === metric.id && got.name === 'Resolved', 'the server answers the SDK');
} finally {
  await server.close();
}
{
  const { createHmac } = await import('node:crypto');
  const body = '{"type":"ping","timestamp":"2026-01-01T00:00:00.000Z","data":{"endpoint_id":"e"}}';
  const ts = String(Math.floor(Date.now() / 1000));
  const mac = createHmac('sha256', Buffer.alloc(32, 1)).update(`msg_1.${ts}.${body}`).digest('base64');
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,${mac}` };
  const event = await verifyWebhook(body, headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
  check(event.type === 'ping', 'verifyWebhook verifies a Standard Webhooks signature');
}
console.log('smoke.mjs: ok');
