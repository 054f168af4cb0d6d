// ESM smoke test of the packed packages: the SDK against the MSW mocks, then against the real
// server (embedded PGlite) started from @voice-eval/server: signup, API key, create and get a metric,
// a recording, the console the package ships, and the audio worker thread voice calls use.
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
  // a recorded call: uploaded, read back in part, and played from a signed URL with no credentials
  const schema = await client.callImportSchemas.create({
    name: 'Recorded',
    parameters: [{ name: 'id', type: 'conversation_id', is_required: true }],
  });
  const wav = Buffer.alloc(844);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(836, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(16000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(800, 40);
  const recorded = await client.callImports.create({
    schema_id: schema.id,
    files: [{ data: wav, filename: 'call.wav' }],
  });
  const [row] = (await client.callImports.get(recorded.id)).rows;
  const part = await client.callImports.recording(recorded.id, row.id, { range: { start: 8, end: 11 } });
  check(part.status === 206 && (await part.text()) === 'WAVE', 'a byte range of a recording');
  const { url: signed } = await client.callImports.recordingUrl(recorded.id, row.id);
  const played = await fetch(signed);
  check(
    played.status === 200 && played.headers.get('content-type') === 'audio/wav',
    'a signed recording URL',
  );
  check(Buffer.from(await played.arrayBuffer()).equals(wav), 'the recording as uploaded');
  // the console ships in the package: its page, based at /console, and the assets it loads
  const page = await fetch(`${url}/console/runs`);
  const html = await page.text();
  check(page.status === 200 && html.includes('<base href="/console/">'), 'the console page');
  const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  check(assets.length >= 2, `the console's assets are named in its page: ${assets}`);
  for (const asset of assets) {
    const res = await fetch(`${url}/console/${asset}`);
    check(res.status === 200 && /immutable/.test(res.headers.get('cache-control') ?? ''), `console ${asset}`);
  }
} finally {
  await server.close();
}
{
  // voice calls do their audio work on a worker thread that runs the package's audio-worker.js
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(new URL('./audio-worker.js', import.meta.resolve('@voice-eval/server')));
  const job = { kind: 'noise', preset: 'office', sampleRate: 8000, durationMs: 1000, seed: 1 };
  const reply = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage({ id: 1, job });
  });
  await worker.terminate();
  check(
    reply.id === 1 && reply.pcm?.length === 8000,
    `the audio worker thread: ${JSON.stringify(reply.error)}`,
  );
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
