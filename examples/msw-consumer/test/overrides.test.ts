import type { EvaluationRow } from '@voice-eval/sdk';
import { describe, expect, it } from 'vitest';
import { flaggedCalls } from '../src/qa-report.js';
import { useVoiceEvalMocks } from './mock-api.js';

const { api, server, client } = useVoiceEvalMocks();

describe('typed overrides', () => {
  it('static data and a resolver answer a route with contract-checked bodies', async () => {
    const evaluation = api.fixtures.evaluation({ status: 'completed', total_rows: 2, completed_rows: 2 });
    const row = (conversation_id: string, flagged: boolean): EvaluationRow =>
      api.fixtures.evaluationRow({
        evaluation_id: evaluation.id,
        conversation_id,
        results: [
          { metric_id: evaluation.id, metric_name: 'Polite', value: !flagged, flagged, rationale: 'tone' },
        ],
      });
    server.use(
      api.mocks.evaluations.get(evaluation),
      api.mocks.evaluations.listRows(({ params, url }) => ({
        status: 200,
        body: {
          items: params.evaluation_id === evaluation.id ? [row('call-a', true), row('call-b', false)] : [],
          total: 2,
          page: Number(url.searchParams.get('page') ?? 1),
          page_size: Number(url.searchParams.get('page_size') ?? 20),
        },
      })),
    );
    await expect(flaggedCalls(client(), evaluation.id)).resolves.toEqual([
      { conversationId: 'call-a', failedMetrics: ['Polite'] },
    ]);
  });

  it('an evaluation still running is refused by the consumer code', async () => {
    const evaluation = api.fixtures.evaluation({ status: 'running' });
    server.use(api.mocks.evaluations.get(() => ({ status: 200, body: evaluation }), { once: true }));
    await expect(flaggedCalls(client(), evaluation.id)).rejects.toThrow(/is running, not completed/);
  });

  it('bodies the contract does not allow fail to compile and throw when written', () => {
    const evaluation = api.fixtures.evaluation();
    expect(() =>
      // @ts-expect-error status must be one of the evaluation statuses
      api.mocks.evaluations.get({ ...evaluation, status: 'paused' }),
    ).toThrow(/does not match the contract/);
    // @ts-expect-error 418 is not a status the route declares
    const teapot = () => api.mocks.evaluations.get(() => ({ status: 418, body: evaluation }));
    expect(teapot).toBeTypeOf('function');
  });
});
