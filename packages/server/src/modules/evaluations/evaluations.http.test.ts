import { EvaluationSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { callRows, makeImport, makeMetric, startEvaluation } from '../../../test/factories/evaluations.js';
import { makeTriple } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';

/** No workers: evaluations stay as created. `bare` has no AI provider at all. */
let h: Harness;
let bare: Harness;
beforeAll(async () => {
  const env = { VOICE_EVAL_LLM_BASE_URL: 'http://127.0.0.1:9/v1', VOICE_EVAL_LLM_MODEL: 'judge-model' };
  [h, bare] = await Promise.all([
    createHarness({ env, workerConcurrency: 0 }),
    createHarness({ workerConcurrency: 0 }),
  ]);
});

/** An import with transcripts and an active metric per tenant, made once. */
const basics = new Map<
  string,
  Promise<{ importId: string; rowIds: Map<string, string>; metricId: string }>
>();
const basicsOf = (harness: Harness, t: Tenant) => {
  if (!basics.has(t.organizationId)) {
    basics.set(
      t.organizationId,
      (async () => {
        const headers = await t.as('MEMBER');
        const imported = await makeImport(harness, headers, callRows(3));
        const metric = await makeMetric(harness, headers, { metric_type: 'boolean' });
        return { importId: imported.id, rowIds: imported.rowIds, metricId: metric.id };
      })(),
    );
  }
  return basics.get(t.organizationId)!;
};

const evaluationOf = async (t: Tenant) => {
  const { importId, metricId } = await basicsOf(h, t);
  return startEvaluation(h, await t.as('MEMBER'), { call_import_id: importId, metric_ids: [metricId] });
};

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/evaluations',
      minRole: 'MEMBER',
      request: async (t) => {
        const { importId, metricId } = await basicsOf(h, t);
        return { path: '/api/v1/evaluations', body: { call_import_id: importId, metric_ids: [metricId] } };
      },
    },
    {
      route: 'GET /api/v1/evaluations',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/evaluations' }),
    },
    {
      route: 'GET /api/v1/evaluations/:evaluation_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluations/${(await evaluationOf(t)).id}` }),
    },
    {
      route: 'GET /api/v1/evaluations/:evaluation_id/rows',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluations/${(await evaluationOf(t)).id}/rows` }),
    },
    {
      route: 'POST /api/v1/evaluations/:evaluation_id/cancel',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluations/${(await evaluationOf(t)).id}/cancel`, body: {} }),
    },
  ],
);

describe('POST /api/v1/evaluations', () => {
  it('starts an evaluation of every row with a transcript: 202, pending rows, the judge recorded', async () => {
    const headers = await h.as('MEMBER');
    const imported = await makeImport(h, headers, [
      ...callRows(4),
      { conversation_id: 'silent', transcript: null },
    ]);
    const metric = await makeMetric(h, headers, { metric_type: 'rating' });
    const created = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id, metric.id],
    });
    const evaluation = EvaluationSchema.parse(created);
    expect(evaluation).toMatchObject({
      status: 'pending',
      total_rows: 4,
      pending_rows: 4,
      metric_ids: [metric.id],
      evaluator_id: null,
      provider: 'default',
      model: null,
      started_at: null,
      workspace_id: h.workspaceId,
    });
    const rows = await h.request('GET', `/api/v1/evaluations/${evaluation.id}/rows?page_size=100`, {
      headers,
    });
    expect(rows.body.total).toBe(4);
    expect(rows.body.items.map((r: { conversation_id: string }) => r.conversation_id).sort()).toEqual([
      'call-1',
      'call-2',
      'call-3',
      'call-4',
    ]);
    const callImport = await h.request('GET', `/api/v1/call-imports/${imported.id}`, { headers });
    expect(callImport.body.latest_evaluation_status).toBe('pending');
  });

  it("takes an evaluator's metrics, the chosen rows only, and a model", async () => {
    const headers = await h.as('MEMBER');
    const { importId, rowIds } = await basicsOf(h, h);
    const metric = await makeMetric(h, headers);
    const triple = await makeTriple(h, h);
    const evaluator = await h.request('POST', '/api/v1/evaluators', {
      headers,
      body: {
        agent_id: triple.agent.id,
        scenario_id: triple.scenario.id,
        persona_id: triple.persona.id,
        metric_ids: [metric.id],
      },
    });
    expect(evaluator.status, JSON.stringify(evaluator.body)).toBe(201);
    const rowId = rowIds.get('call-2')!;
    const created = await startEvaluation(h, headers, {
      call_import_id: importId,
      evaluator_id: evaluator.body.id,
      row_ids: [rowId, rowId],
      model: 'judge-large',
    });
    expect(created).toMatchObject({
      evaluator_id: evaluator.body.id,
      metric_ids: [metric.id],
      total_rows: 1,
      model: 'judge-large',
    });
  });

  it('refuses bodies that break the rules', async () => {
    const headers = await h.as('MEMBER');
    const { importId, metricId } = await basicsOf(h, h);
    const post = (body: Record<string, unknown>, harness = h) =>
      harness.request('POST', '/api/v1/evaluations', { headers, body });
    expectProblem(await post({ call_import_id: importId }), 422, 'validation_failed');
    const triple = await makeTriple(h, h);
    expectProblem(
      await post({ call_import_id: importId, metric_ids: [metricId], evaluator_id: triple.agent.id }),
      422,
      'validation_failed',
    );
    const draft = await h.request('POST', '/api/v1/metrics/drafts', {
      headers,
      body: { name: `Draft ${Date.now()}` },
    });
    expectProblem(
      await post({ call_import_id: importId, metric_ids: [draft.body.id] }),
      422,
      'rule_violation',
    );
    expectProblem(
      await post({ call_import_id: crypto.randomUUID(), metric_ids: [metricId] }),
      404,
      'not_found',
    );
    expectProblem(
      await post({ call_import_id: importId, evaluator_id: crypto.randomUUID() }),
      404,
      'not_found',
    );
    const stranger = await post({
      call_import_id: importId,
      metric_ids: [metricId],
      row_ids: [crypto.randomUUID()],
    });
    expectProblem(stranger, 422, 'rule_violation');
    expect(stranger.body.errors).toEqual([
      { path: 'body.row_ids.0', message: 'Not a row of this call import' },
    ]);
    const unknownProvider = await post({
      call_import_id: importId,
      metric_ids: [metricId],
      ai_provider_id: crypto.randomUUID(),
    });
    expectProblem(unknownProvider, 422, 'rule_violation');
    const silent = await makeImport(h, headers, [{ conversation_id: 'quiet', transcript: null }]);
    expectProblem(await post({ call_import_id: silent.id, metric_ids: [metricId] }), 422, 'rule_violation');
  });

  it('is 422 ai_provider_not_configured without an AI provider or a server default', async () => {
    const headers = await bare.as('MEMBER');
    const imported = await makeImport(bare, headers, callRows(1));
    const metric = await makeMetric(bare, headers);
    const reply = await bare.request('POST', '/api/v1/evaluations', {
      headers,
      body: { call_import_id: imported.id, metric_ids: [metric.id] },
    });
    expectProblem(reply, 422, 'ai_provider_not_configured');
  });
});

describe('tenant isolation', () => {
  it("never shows or accepts another organization's imports, metrics or evaluations", async () => {
    const other = await h.createTenant();
    const theirs = await evaluationOf(other);
    const mine = await evaluationOf(h);
    const headers = await h.as('OWNER');
    const list = await h.request('GET', '/api/v1/evaluations?page_size=100', { headers });
    const ids = list.body.items.map((e: { id: string }) => e.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const { importId, metricId } = await basicsOf(h, other);
    const ownMetric = (await basicsOf(h, h)).metricId;
    const ownImport = (await basicsOf(h, h)).importId;
    const post = (body: Record<string, unknown>) =>
      h.request('POST', '/api/v1/evaluations', { headers, body });
    expectProblem(await post({ call_import_id: importId, metric_ids: [ownMetric] }), 404, 'not_found');
    expectProblem(await post({ call_import_id: ownImport, metric_ids: [metricId] }), 422, 'rule_violation');
  });
});

describe('GET /api/v1/evaluations and cancel', () => {
  it('lists newest first, filtered by import and status; cancel is idempotent and keeps the import current', async () => {
    const headers = await h.as('MEMBER');
    const imported = await makeImport(h, headers, callRows(2));
    const metric = await makeMetric(h, headers);
    const first = await startEvaluation(h, headers, { call_import_id: imported.id, metric_ids: [metric.id] });
    const second = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
    });
    const cancelled = await h.request('POST', `/api/v1/evaluations/${second.id}/cancel`, {
      headers,
      body: {},
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_rows: 2, pending_rows: 0 });
    expect(
      (await h.request('POST', `/api/v1/evaluations/${second.id}/cancel`, { headers, body: {} })).body.status,
    ).toBe('cancelled');
    const rows = await h.request('GET', `/api/v1/evaluations/${second.id}/rows?status=cancelled`, {
      headers,
    });
    expect(rows.body.total).toBe(2);
    expect(rows.body.items[0].error.code).toBe('cancelled');
    const byImport = await h.request('GET', `/api/v1/evaluations?call_import_id=${imported.id}`, { headers });
    expect(byImport.body.items.map((e: { id: string }) => e.id)).toEqual([second.id, first.id]);
    const pending = await h.request(
      'GET',
      `/api/v1/evaluations?call_import_id=${imported.id}&status=pending`,
      { headers },
    );
    expect(pending.body.items.map((e: { id: string }) => e.id)).toEqual([first.id]);
    const callImport = await h.request('GET', `/api/v1/call-imports/${imported.id}`, { headers });
    expect(callImport.body.latest_evaluation_status).toBe('cancelled');
    const column = await h.db('call_imports').where('id', imported.id).first('latest_evaluation_status');
    expect(column.latest_evaluation_status).toBe('cancelled');
  });

  it('goes away with its call import', async () => {
    const headers = await h.as('MEMBER');
    const imported = await makeImport(h, headers, callRows(2));
    const metric = await makeMetric(h, headers);
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
    });
    expect((await h.request('DELETE', `/api/v1/call-imports/${imported.id}`, { headers })).status).toBe(204);
    expectProblem(
      await h.request('GET', `/api/v1/evaluations/${evaluation.id}`, { headers }),
      404,
      'not_found',
    );
    expect(await h.db('evaluation_rows').where('evaluation_id', evaluation.id).first()).toBeUndefined();
  });
});
