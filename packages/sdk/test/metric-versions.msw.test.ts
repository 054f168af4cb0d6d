import { describe, expect, it } from 'vitest';
import { createRunnableSuite, useMockApi } from './helpers.js';

const { client } = useMockApi();
const fast = { intervalMs: 1 };

describe('metric versions in the mock store', () => {
  it('makes version 1 on create and the next on a change to what the metric judges', async () => {
    const metric = await client().metrics.create({ name: 'Greets', description: 'Did the agent greet?' });
    expect(metric.version).toBe(1);
    expect((await client().metrics.update(metric.id, { tags: ['greeting'] })).version).toBe(1);
    const changed = await client().metrics.update(metric.id, { description: 'Did the agent greet by name?' });
    expect(changed.version).toBe(2);
    const versions = await client().metrics.versions(metric.id);
    expect(versions.items.map((v) => [v.version, v.status, v.definition.description])).toEqual([
      [2, 'active', 'Did the agent greet by name?'],
      [1, 'superseded', 'Did the agent greet?'],
    ]);
    const draft = await client().metrics.createDraft({ name: 'Idea' });
    expect((await client().metrics.versions(draft.id)).items).toMatchObject([
      { version: 1, status: 'draft' },
    ]);
  });

  it('scores with the current version and warns when compare spans two', async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const first = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    await client().metrics.update(metricIds[0]!, { description: 'Reworded' });
    const second = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const compared = await client().suiteRuns.compare(second.id, { baseline_run_id: first.id });
    expect(compared.metrics.map((m) => [m.version, m.baseline_version, m.version_changed])).toEqual([
      [2, 1, true],
      [1, 1, false],
    ]);
    expect(compared.warnings).toHaveLength(1);
    expect(compared.warnings[0]).toMatch(/was scored with version 2 here and version 1 in the baseline/);
  });
});

describe('labels and agreement in the mock store', () => {
  it("stores one label per call for the mock's user and measures the mock judge against them", async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const run = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const rows = await client().evaluations.listRows(run.evaluation_id!, { page_size: 10 });
    const [first, second] = rows.items;
    const metricId = metricIds[0]!;
    // the mock judge passes or flags a boolean
    const judged = (row: typeof first): boolean =>
      row?.results.find((r) => r.metric_id === metricId)?.value === true;
    await client().metrics.setLabel(metricId, first!.call_import_row_id, { value: judged(first) });
    await client().metrics.setLabel(metricId, second!.call_import_row_id, { value: true });
    const replaced = await client().metrics.setLabel(metricId, second!.call_import_row_id, {
      value: !judged(second),
      note: 'The judge missed it.',
    });
    expect(replaced).toMatchObject({
      note: 'The judge missed it.',
      conversation_id: second!.conversation_id,
    });
    expect((await client().metrics.labels(metricId)).total).toBe(2);
    const agreement = await client().metrics.agreement(metricId);
    expect(agreement).toMatchObject({ n: 2, version: 1, categorical: { accuracy: { estimate: 0.5 } } });
    expect(agreement.disagreements.map((d) => d.call_import_row_id)).toEqual([second!.call_import_row_id]);
    await client().metrics.deleteLabel(metricId, second!.call_import_row_id);
    expect((await client().metrics.agreement(metricId)).n).toBe(1);
  });
});

describe('draft versions in the mock store', () => {
  it('drafts the next version beside the active one, starts its scoring on labelled calls and promotes it once', async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const run = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const metricId = metricIds[0]!;
    const [row] = (await client().evaluations.listRows(run.evaluation_id!, { page_size: 1 })).items;
    await client().metrics.setLabel(metricId, row!.call_import_row_id, { value: true });

    const draft = await client().metrics.createVersion(metricId, { description: 'Stricter words' });
    expect(draft).toMatchObject({ version: 2, status: 'draft', based_on: 1 });
    expect((await client().metrics.get(metricId)).version).toBe(1);
    const scoring = await client().metrics.scoreVersion(metricId, 2);
    expect(scoring).toMatchObject({ version: 2, labelled: 1, already_scored: 0 });
    expect(scoring.evaluations).toHaveLength(1);
    const paired = await client().metrics.agreement(metricId, { version: 2, baseline_version: 1 });
    expect(paired.paired).toMatchObject({ baseline_version: 1, n: 0 });

    const promoted = await client().metrics.promoteVersion(metricId, 2);
    expect(promoted).toMatchObject({ version: 2, description: 'Stricter words' });
    expect((await client().metrics.versions(metricId)).items.map((v) => [v.version, v.status])).toEqual([
      [2, 'active'],
      [1, 'superseded'],
    ]);
    await expect(client().metrics.promoteVersion(metricId, 2)).rejects.toMatchObject({ status: 409 });
  });
});
