/**
 * The document tells the truth: every operation of `contract/openapi.json` is driven through the
 * SDK against the real server, and every response on the wire is checked against the document
 * with Ajv (status, required headers, content type, body). Objects are closed for the check, so a
 * field the server sends but the document does not list fails too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiDouble, startOpenAiDouble } from '../src/testing/openai-compatible.js';
import {
  type Drive,
  driveAccess,
  driveMonitors,
  driveProductionCalls,
  driveReviewQueues,
  driveSettings,
  driveWebhooks,
} from './openapi/drive.js';
import { DRIVEN_ERRORS, driveErrors } from './openapi/drive-errors.js';
import { driveSuites } from './openapi/drive-simulation.js';
import { driveCalls, driveMetrics } from './openapi/drive-work.js';
import { createOpenApiValidator, createRecorder, type Exchange } from './openapi/validator.js';
import { createSdkHarness } from './sdk-e2e/sdk-harness.js';

/** Operations the drive reaches only with a documented error: compare needs a finished run. */
const ERROR_ONLY = ['suiteRuns.compare'];

const validator = createOpenApiValidator();
const recorder = createRecorder();
let double: OpenAiDouble;

beforeAll(async () => {
  double = await startOpenAiDouble();
  const h = await createSdkHarness({
    fetchAllowlist: ['127.0.0.1'],
    env: {
      VOICE_EVAL_LLM_BASE_URL: double.url,
      VOICE_EVAL_LLM_API_KEY: 'sk-double',
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    },
  });
  const options = { fetch: recorder.fetch };
  const drive: Drive = { h, client: h.sdk(options), anonymous: h.anonymous(options), double, options };
  const steps = [
    driveAccess,
    driveSettings,
    driveWebhooks,
    driveProductionCalls,
    driveMonitors,
    driveReviewQueues,
    driveMetrics,
    driveCalls,
    driveSuites,
    driveErrors,
  ];
  for (const step of steps) await step(drive);
}, 120_000);
afterAll(() => double?.close());

const results = () => recorder.exchanges.map((exchange) => ({ exchange, ...validator.validate(exchange) }));
const label = ({ method, url, status }: Exchange) => `${method} ${new URL(url).pathname} ${status}`;

describe('the server answers as contract/openapi.json says', () => {
  it('every response matches its operation: status, headers, content type and body', () => {
    const problems = results().flatMap(({ exchange, problems }) =>
      problems.map((p) => `${label(exchange)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('every operation of the document is exercised', () => {
    const seen = new Set(results().map((r) => r.operationId));
    expect(validator.operationIds.filter((id) => !seen.has(id))).toEqual([]);
  });

  it('errors and replays are checked too: one of each kind of error, and a replayed result', () => {
    const statuses = new Set(recorder.exchanges.map((e) => e.status));
    expect(DRIVEN_ERRORS.filter((status) => !statuses.has(status))).toEqual([]);
    expect(recorder.exchanges.some((e) => e.headers.get('idempotent-replayed') === 'true')).toBe(true);
  });

  it('every operation succeeds at least once, but those reached only with an error', () => {
    const succeeded = new Set(
      results()
        .filter((r) => r.exchange.status < 300)
        .map((r) => r.operationId),
    );
    expect(validator.operationIds.filter((id) => !succeeded.has(id))).toEqual(ERROR_ONLY);
  });
});

describe('the validator', () => {
  const exchange = (status: number, body: unknown, headers: Record<string, string> = {}): Exchange => ({
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/tags',
    status,
    headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'r1', ...headers }),
    body: JSON.stringify(body),
  });
  const page = (item: unknown) => ({ items: [item], total: 1, page: 1, page_size: 20 });

  it('refuses a field, a status, a type and a header the document does not have', () => {
    const listed = recorder.exchanges.find((e) => e.url.endsWith('/api/v1/tags') && e.method === 'GET');
    if (!listed) throw new Error('the drive lists tags');
    const item = (JSON.parse(listed.body) as { items: Array<Record<string, unknown>> }).items[0];
    expect(validator.validate(exchange(200, page(item))).problems).toEqual([]);
    expect(validator.validate(exchange(200, page({ ...item, bogus: 1 }))).problems).not.toEqual([]);
    expect(validator.validate(exchange(200, page({ ...item, name: 7 }))).problems).not.toEqual([]);
    expect(validator.validate(exchange(418, {})).problems).toEqual(['status 418 is not documented']);
    const noId = {
      ...exchange(200, page(item)),
      headers: new Headers({ 'content-type': 'application/json' }),
    };
    expect(validator.validate(noId).problems).toEqual(['header X-Request-Id is missing']);
    expect(
      validator.validate({ ...exchange(200, page(item)), url: 'http://127.0.0.1/api/v1/nope' }).problems,
    ).toEqual(['no such operation in the document']);
  });
});
