import { describe, expect, it } from 'vitest';
import { flaggedCalls, listAgentNames } from '../src/qa-report.js';
import { useVoiceEvalMocks } from './mock-api.js';

const { api, client } = useVoiceEvalMocks();

describe('lists across pages', () => {
  it('collects every agent of seeded fixtures, newest first, page by page', async () => {
    const seeded = api.db.agents.createMany(45, (i) => api.fixtures.agent({ name: `Agent ${i + 1}` }));
    const names = await listAgentNames(client(), 20);
    expect(names).toHaveLength(45);
    // fixtures get increasing timestamps, and lists are newest first
    expect(names[0]).toBe('Agent 45');
    expect(names.at(-1)).toBe('Agent 1');
    expect(new Set(names)).toEqual(new Set(seeded.map((a) => a.name)));

    const first = await client().agents.list({ page_size: 20 });
    expect(first).toMatchObject({ page: 1, page_size: 20, total: 45 });
    const sizes: number[] = [];
    for await (const page of first.iterPages()) sizes.push(page.items.length);
    expect(sizes).toEqual([20, 20, 5]);
  });

  it('an empty list is one empty page', async () => {
    expect(await listAgentNames(client())).toEqual([]);
    expect((await client().agents.list()).hasNextPage()).toBe(false);
  });

  it('walks more than one page of evaluation rows to find flagged calls', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation({ status: 'completed' }));
    const result = (flagged: boolean) => ({
      metric_id: api.fixtures.metric().id,
      metric_name: 'Resolved the request',
      value: !flagged,
      flagged,
      rationale: null,
    });
    api.db.evaluationRows.createMany(150, (i) =>
      api.fixtures.evaluationRow({
        evaluation_id: evaluation.id,
        conversation_id: `call-${i + 1}`,
        results: [result(i % 50 === 0)],
      }),
    );
    const flagged = await flaggedCalls(client(), evaluation.id);
    expect(flagged.map((f) => f.conversationId).sort()).toEqual(['call-1', 'call-101', 'call-51']);
    expect(flagged[0]?.failedMetrics).toEqual(['Resolved the request']);
  });
});
