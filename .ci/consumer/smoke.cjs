// CommonJS smoke test of the packed packages: require() the contract, the SDK and its mocks.
const { contract } = require('@voice-eval/contract');
const { createOpenApiDocument } = require('@voice-eval/contract/openapi');
const { NotFoundError, VoiceEval } = require('@voice-eval/sdk');
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
  console.log('smoke.cjs: ok');
};
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
