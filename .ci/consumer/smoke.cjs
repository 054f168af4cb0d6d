// CommonJS smoke test of the packed packages: require() the contract, the SDK and its mocks.
const { contract } = require('@voice-eval/contract');
const { createOpenApiDocument } = require('@voice-eval/contract/openapi');
const { createHmac } = require('node:crypto');
const { NotFoundError, VoiceEval, verifyWebhook } = require('@voice-eval/sdk');
const { createVoiceEvalMocks } = require('@voice-eval/sdk/msw');
const { setupServer } = require('msw/node');

const main = async () => {
  const mocks = createVoiceEvalMocks();
  const msw = setupServer(...mocks.handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  const client = new VoiceEval({ baseUrl: 'https://api.voice-eval.test', apiKey: 'k', logLevel: 'off' });
  const tag = await client.tags.create({ name: 'smoke' });
  const missing = await client.tags.delete('00000000-0000-4000-8000-0000000000ff').catch((e) => e);
  msw.close();
  if (tag.name !== 'smoke' || !(missing instanceof NotFoundError)) throw new Error('smoke.cjs: mocks');
  if (contract.metrics.create.method !== 'POST') throw new Error('smoke.cjs: contract');
  if (!createOpenApiDocument().paths['/api/v1/metrics']) throw new Error('smoke.cjs: openapi');
  const body = '{"type":"ping","timestamp":"2026-01-01T00:00:00.000Z","data":{"endpoint_id":"e"}}';
  const ts = String(Math.floor(Date.now() / 1000));
  const mac = createHmac('sha256', Buffer.alloc(32, 1)).update(`msg_1.${ts}.${body}`).digest('base64');
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,${mac}` };
  const event = await verifyWebhook(body, headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`);
  if (event.type !== 'ping') throw new Error('smoke.cjs: verifyWebhook');
  console.log('smoke.cjs: ok');
};
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
