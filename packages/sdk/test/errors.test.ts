import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  VoiceEvalError,
} from '../src/index.js';
import { BASE_URL, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const ID = '00000000-0000-4000-8000-0000000000ff';

describe('typed errors', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [413, ApiError],
    [415, ApiError],
  ] as const)('%i becomes %o', async (status, ErrorClass) => {
    server.use(api.mocks.metrics.get.error(status));
    const error = await client({ maxRetries: 0 })
      .metrics.get(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(VoiceEvalError);
    expect((error as ApiError).status).toBe(status);
  });

  it('carries the problem: code, detail, errors, request id and headers', async () => {
    const errors = [{ path: 'body.name', message: 'Required' }];
    server.use(
      api.mocks.metrics.create.error(422, { code: 'validation_failed', detail: 'Bad body', errors }),
    );
    const error = (await client()
      .metrics.create({ name: 'x' })
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', detail: 'Bad body', errors });
    expect(error.requestId).toMatch(/^req_mock_/);
    expect(error.problem?.request_id).toBe(error.requestId);
    expect(error.headers.get('content-type')).toBe('application/problem+json');
    expect(error.message).toBe('422 validation_failed: Bad body');
  });

  it('the default handlers answer unknown ids with 404 and invalid ids with 422', async () => {
    await expect(client().agents.get(ID)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const invalid = (await client()
      .agents.get('not-a-uuid')
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(invalid).toBeInstanceOf(UnprocessableEntityError);
    expect(invalid.errors[0]?.path).toBe('params.agent_id');
  });

  it('RateLimitError exposes retryAfter in seconds', async () => {
    server.use(api.mocks.tags.list.error(429, {}, { headers: { 'retry-after': '7' } }));
    const error = (await client({ maxRetries: 0 })
      .tags.list()
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(7);
  });

  it('a non-problem error body still gives an ApiError with the raw body', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/tags`, () => new HttpResponse('<h1>Bad gateway</h1>', { status: 502 })),
    );
    const error = (await client({ maxRetries: 0 })
      .tags.list()
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.problem).toBeUndefined();
    expect(error.body).toBe('<h1>Bad gateway</h1>');
    expect(error.message).toBe('502: request failed');
  });

  it('a success body that breaks the contract is a ResponseValidationError', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/tags`, () =>
        HttpResponse.json(
          { items: [{ id: 'x' }], total: 1, page: 1, page_size: 20 },
          { headers: { 'x-request-id': 'r1' } },
        ),
      ),
    );
    const error = (await client()
      .tags.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, requestId: 'r1' });
    expect(error.issues.map((i) => i.path)).toContain('items.0.id');
  });

  it('an undeclared success status is a ResponseValidationError; validateResponses: false lets it through', async () => {
    server.use(
      http.get(`${BASE_URL}/api/v1/auth/me`, () => HttpResponse.json({ odd: true }, { status: 203 })),
    );
    await expect(client().auth.me()).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(client({ validateResponses: false }).auth.me()).resolves.toEqual({ odd: true });
  });

  it('a newer server’s enum value and field pass by default, and fail with validateResponses: true', async () => {
    const run = { ...api.fixtures.suiteRun({ status: 'completed' }), status: 'paused', brand_new: 1 };
    server.use(http.get(`${BASE_URL}/api/v1/suite-runs/:run_id`, () => HttpResponse.json(run)));
    await expect(client().suiteRuns.get(run.id)).resolves.toMatchObject({ status: 'paused', brand_new: 1 });
    const strict = await client({ validateResponses: true })
      .suiteRuns.get(run.id)
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ResponseValidationError);
    // anything else than a newer server's additions still fails by default
    server.use(http.get(`${BASE_URL}/api/v1/suite-runs/:run_id`, () => HttpResponse.json({ ...run, id: 7 })));
    await expect(client().suiteRuns.get(run.id)).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('a network failure is a ConnectionError (after retries)', async () => {
    server.use(http.get(`${BASE_URL}/api/v1/tags`, () => HttpResponse.error()));
    const error = await client({ maxRetries: 0 })
      .tags.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).cause).toBeDefined();
  });

  it('an empty path parameter is rejected before any request', async () => {
    await expect(client().metrics.get('')).rejects.toThrow(/non-empty string for path parameter `metric_id`/);
  });
});
