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

describe('the label export in the mock store', () => {
  it('writes the stored labels as the server does: CSV with a header row, or JSON rows', async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const run = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const [first, second] = (await client().evaluations.listRows(run.evaluation_id!, { page_size: 2 })).items;
    const metricId = metricIds[0]!;
    const metric = await client().metrics.get(metricId);
    await client().metrics.setLabel(metricId, first!.call_import_row_id, { value: true, note: '=1+1' });
    await client().metrics.setLabel(metricId, second!.call_import_row_id, {
      value: false,
      note: 'Said "no", twice\nthen hung up',
    });
    const judge = (row: typeof first) => row?.results.find((r) => r.metric_id === metricId)?.value ?? null;

    const rows = await client().metrics.exportLabels(metricId, { format: 'json' });
    const labels = (await client().metrics.labels(metricId)).items;
    expect(rows).toEqual(
      labels.map((l) => ({
        ...l,
        metric_name: metric.name,
        call_import_id: run.call_import_id,
        judge_value: judge(l.call_import_row_id === first!.call_import_row_id ? first : second),
        judge_version: metric.version,
      })),
    );

    const { data: csv, response } = await client().metrics.exportLabels(metricId).withResponse();
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="labels-[a-z0-9-]+\.csv"$/,
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'metric_id,metric_name,call_import_id,call_import_row_id,conversation_id,value,note,labelled_by,created_at,updated_at,judge_value,judge_version',
    );
    // newest first: the second label, its note quoted (a comma, quotes, a line break), then the
    // first, its note kept from running as a formula
    expect(csv).toContain(`,false,"Said ""no"", twice\nthen hung up",ada@example.test,`);
    expect(csv).toContain(`,true,'=1+1,ada@example.test,`);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(
      await client().metrics.exportLabels(metricId, { call_import_row_id: first!.call_import_row_id }),
    ).toContain(first!.conversation_id);
    await expect(client().metrics.exportLabels(metricId, { format: 'xml' as 'csv' })).rejects.toMatchObject({
      status: 422,
    });
  });
});

describe('consistency checks in the mock store', () => {
  it('starts one evaluation per repeat over the first calls of the source, and lists the check', async () => {
    const { suite, metricIds } = await createRunnableSuite(client());
    const run = await client().suiteRuns.waitFor((await client().suiteRuns.create(suite.id)).id, fast);
    const metricId = metricIds[0]!;
    const check = await client().consistencyChecks.create(metricId, {
      source: { kind: 'evaluation', evaluation_id: run.evaluation_id! },
      sample_size: 2,
      repeats: 3,
    });
    expect(check).toMatchObject({ metric_id: metricId, calls: 2, repeats: 3, status: 'running', n: 0 });
    expect(check.evaluation_ids).toHaveLength(3);
    expect((await client().evaluations.get(check.evaluation_ids[0]!)).status).toBe('pending');
    expect((await client().consistencyChecks.list(metricId)).items.map((c) => c.id)).toEqual([check.id]);
    expect(await client().consistencyChecks.get(metricId, check.id)).toMatchObject({ id: check.id });
    await expect(client().consistencyChecks.get(metricId, crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
    });
  });
});
