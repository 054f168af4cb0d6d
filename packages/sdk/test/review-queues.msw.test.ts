import { describe, expect, it } from 'vitest';
import { createRunnableSuite, useMockApi } from './helpers.js';

const { client } = useMockApi();
const fast = { intervalMs: 1 };

describe('review queues in the mock store', () => {
  it('samples a run, hands out one call at a time, and completes once every call is labelled', async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const run = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const metricId = metricIds[0]!;
    const queue = await client().reviewQueues.create({
      name: 'First look',
      source: { kind: 'suite_run', suite_run_id: run.id },
      metric_ids: [metricId],
      sample_size: 2,
    });
    expect(queue.counts).toEqual({ total: 2, open: 2, claimed: 0, done: 0 });
    const first = (await client().reviewQueues.next(queue.id)).item!;
    expect(first).toMatchObject({ status: 'claimed', position: 1 });
    expect((await client().reviewQueues.next(queue.id)).item!.id).toBe(first.id);
    await expect(client().reviewQueues.complete(queue.id, first.id)).rejects.toMatchObject({ status: 422 });
    for (let i = 0; i < 2; i++) {
      const { item } = await client().reviewQueues.next(queue.id);
      await client().metrics.setLabel(metricId, item!.call_import_row_id, { value: true });
      expect(await client().reviewQueues.complete(queue.id, item!.id)).toMatchObject({ status: 'done' });
    }
    expect(await client().reviewQueues.get(queue.id)).toMatchObject({
      status: 'completed',
      counts: { total: 2, done: 2 },
    });
    expect((await client().reviewQueues.next(queue.id)).item).toBeNull();
    expect((await client().reviewQueues.items(queue.id, { status: 'done' })).total).toBe(2);
  });
});
