import { InternalServerError, NotFoundError, UnprocessableEntityError } from '@voice-eval/sdk';
import { describe, expect, it } from 'vitest';
import { createTag, findMetric } from '../src/qa-report.js';
import { useVoiceEvalMocks } from './mock-api.js';

const { api, server, client } = useVoiceEvalMocks();

describe('404: NotFoundError', () => {
  it('findMetric returns a stored metric, and null for an unknown id', async () => {
    const metric = api.db.metrics.create(api.fixtures.metric({ name: 'Greets the caller' }));
    await expect(findMetric(client(), metric.id)).resolves.toMatchObject({ name: 'Greets the caller' });
    await expect(findMetric(client(), crypto.randomUUID())).resolves.toBeNull();
  });

  it('an error shortcut answers a problem the SDK turns into NotFoundError with a request id', async () => {
    const metric = api.db.metrics.create(api.fixtures.metric());
    server.use(api.mocks.metrics.get.error(404, { detail: 'Metric not found.' }));
    const error = await client()
      .metrics.get(metric.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'not_found',
      detail: 'Metric not found.',
      requestId: expect.stringMatching(/^req_mock_/),
    });
    expect((error as NotFoundError).problem?.request_id).toBe((error as NotFoundError).requestId);
    await expect(findMetric(client(), metric.id)).resolves.toBeNull();
  });

  it('findMetric lets other errors through', async () => {
    server.use(api.mocks.metrics.get.error(500));
    await expect(findMetric(client({ maxRetries: 0 }), crypto.randomUUID())).rejects.toBeInstanceOf(
      InternalServerError,
    );
  });
});

describe('422: UnprocessableEntityError with field errors', () => {
  it('the default handlers validate bodies against the contract, like the server', async () => {
    const result = await createTag(client(), '');
    expect(result).toMatchObject({ ok: false, requestId: expect.stringMatching(/^req_mock_/) });
    expect(result.ok === false && result.problems.map((p) => p.path)).toEqual(['body.name']);
    await expect(createTag(client(), 'Escalations')).resolves.toMatchObject({
      ok: true,
      tag: { name: 'Escalations' },
    });
    expect(api.db.tags.all().map((t) => t.name)).toEqual(['Escalations']);
  });

  it('an error shortcut can carry the field errors the application must show', async () => {
    server.use(
      api.mocks.tags.create.error(422, {
        code: 'validation_failed',
        errors: [{ path: 'body.name', message: 'A tag with this name already exists' }],
      }),
    );
    const error = await client()
      .tags.create({ name: 'Escalations' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(await createTag(client(), 'Escalations')).toEqual({
      ok: false,
      problems: [{ path: 'body.name', message: 'A tag with this name already exists' }],
      requestId: expect.stringMatching(/^req_mock_/),
    });
    expect(api.db.tags.size).toBe(0);
  });
});
