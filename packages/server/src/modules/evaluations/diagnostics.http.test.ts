import { contract } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { callRows, makeImport, makeMetric, startEvaluation } from '../../../test/factories/evaluations.js';
import { createHarness, type Harness, type Headers, type Tenant } from '../../../test/harness.js';
import { dispatchPass, limitsOf } from '../../dispatch/fair-dispatcher.js';
import { evaluationDispatchSource } from './dispatch-source.js';

const PATH = '/api/v1/call-imports/dispatch-diagnostics';
const ResponseSchema = contract.callImports.dispatchDiagnostics.responses[200];

/** No workers, so nothing moves between the call and the counts read beside it. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    env: { VOICE_EVAL_LLM_BASE_URL: 'http://127.0.0.1:9/v1', VOICE_EVAL_LLM_MODEL: 'judge-model' },
    workerConcurrency: 0,
    globalLimit: 6,
    orgLimit: 4,
    workspaceLimit: 3,
    jobLimit: 2,
    fairDispatchBatchSize: 5,
    atCapacityBackoffSeconds: 7,
  });
});

describeAccessRules(
  () => h,
  [{ route: `GET ${PATH}`, minRole: 'ADMIN', request: async () => ({ path: PATH }) }],
);

const newWorkspace = async (t: Tenant, name: string) => {
  const reply = await h.request('POST', '/api/v1/workspaces', {
    headers: await t.as('OWNER'),
    body: { name },
  });
  return { id: reply.body.id as string, name, slug: reply.body.slug as string };
};

/** An evaluation of a new import with `rows` rows in the workspace `headers` select. */
const evaluate = async (headers: Headers, rows: number) => {
  const imported = await makeImport(h, headers, callRows(rows));
  const metric = await makeMetric(h, headers);
  return startEvaluation(h, headers, { call_import_id: imported.id, metric_ids: [metric.id] });
};

/** Dispatches up to `n` rows for a pretend instance, as a worker pool would. */
const dispatch = (n: number) =>
  dispatchPass(
    {
      db: h.db,
      limits: limitsOf(h.server.deps.config),
      leaseMs: 60_000,
      now: () => new Date(),
      sources: [evaluationDispatchSource],
    },
    evaluationDispatchSource,
    'diag',
    n,
  );

const count = async (query: ReturnType<Harness['db']>) =>
  Number(((await query.count({ n: '*' })) as Array<{ n: number }>)[0]!.n);

/** The numbers of one workspace straight from the tables. */
const expectedWorkspace = async (workspaceId: string, now: Date) => {
  const rows = () => h.db('evaluation_rows').where('workspace_id', workspaceId);
  const live = () => rows().where('status', 'running').where('lease_expires_at', '>', now);
  const active = await h
    .db('evaluations')
    .where('workspace_id', workspaceId)
    .whereIn('status', ['pending', 'running'])
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  const cursor = await h.db('dispatch_tenants').where('workspace_id', workspaceId).first('child_cursor');
  return {
    inflight: await count(live()),
    pending_dispatch_rows: await count(
      rows()
        .where('status', 'pending')
        .whereIn(
          'evaluation_id',
          active.map((e) => e.id),
        ),
    ),
    pending_import_rows: await count(
      h
        .db('call_import_rows as r')
        .join('call_imports as ci', 'ci.id', 'r.call_import_id')
        .where('ci.workspace_id', workspaceId)
        .where('r.diarised_transcript_status', 'pending'),
    ),
    eval_rr_cursor: Number(cursor?.child_cursor ?? 0),
    active_evaluations: active.length,
    evaluations: await Promise.all(
      active.map(async (e) => ({
        evaluation_id: e.id,
        call_import_id: e.call_import_id,
        status: e.status,
        total_rows: await count(h.db('evaluation_rows').where('evaluation_id', e.id)),
        pending_rows: await count(h.db('evaluation_rows').where({ evaluation_id: e.id, status: 'pending' })),
        running_rows: await count(h.db('evaluation_rows').where({ evaluation_id: e.id, status: 'running' })),
        job_inflight: await count(live().where('evaluation_id', e.id)),
      })),
    ),
  };
};

describe(`GET ${PATH}`, () => {
  let busy: { id: string; name: string; slug: string };
  let idle: { id: string; name: string; slug: string };
  let other: Tenant;
  beforeAll(async () => {
    busy = await newWorkspace(h, 'Busy');
    idle = await newWorkspace(h, 'Idle');
    const inBusy = { ...(await h.as('OWNER')), 'x-workspace-id': busy.id };
    await evaluate(await h.as('OWNER'), 5);
    await evaluate(await h.as('OWNER'), 2);
    await evaluate(inBusy, 6);
    other = await h.createTenant();
    await evaluate(await other.as('OWNER'), 4);
    await dispatch(6);
    // one running row whose worker died: still running, no longer in flight
    const [stale] = await h
      .db('evaluation_rows')
      .where({ workspace_id: busy.id, status: 'running' })
      .limit(1)
      .pluck('id');
    await h
      .db('evaluation_rows')
      .where('id', stale)
      .update({ lease_expires_at: new Date(Date.now() - 60_000) });
    await dispatch(6);
    // call-import rows of the busy workspace waiting for transcription
    const [busyImport] = await h.db('call_imports').where('workspace_id', busy.id).pluck('id');
    const waiting = await h.db('call_import_rows').where('call_import_id', busyImport).limit(3).pluck('id');
    await h.db('call_import_rows').whereIn('id', waiting).update({ diarised_transcript_status: 'pending' });
  });

  it('answers the contract schema with every number equal to the rows at the moment of the call', async () => {
    const reply = await h.request('GET', PATH, { headers: await h.as('ADMIN') });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = ResponseSchema.parse(reply.body);
    const now = new Date(body.generated_at);
    const live = () => h.db('evaluation_rows').where('status', 'running').where('lease_expires_at', '>', now);
    const globalInflight = await count(live());
    const orgInflight = await count(live().where('organization_id', h.organizationId));
    expect(globalInflight).toBeGreaterThan(orgInflight); // the other organization has rows in flight too
    expect(body.limits).toEqual({
      global_limit: 6,
      global_inflight: globalInflight,
      global_at_capacity: globalInflight >= 6,
      org_limit: 4,
      org_inflight: orgInflight,
      org_at_capacity: orgInflight >= 4,
      workspace_limit: 3,
      job_limit: 2,
      fair_dispatch_batch_size: 5,
    });
    const state = await h.db('dispatch_state').first('global_cursor');
    expect(body.fair_dispatch).toEqual({
      global_rr_cursor: Number(state.global_cursor),
      dispatch_dedupe_active: true,
      dispatch_queue: 'evaluation_row.score',
      at_capacity_backoff_seconds: 7,
    });
    expect(body.workspaces.map((w) => w.workspace_id).sort()).toEqual([h.workspaceId, busy.id].sort());
    for (const workspace of body.workspaces) {
      const expected = await expectedWorkspace(workspace.workspace_id, now);
      expect(workspace).toEqual({
        ...expected,
        workspace_id: workspace.workspace_id,
        workspace_name: workspace.workspace_id === busy.id ? 'Busy' : workspace.workspace_name,
        workspace_slug: workspace.workspace_id === busy.id ? busy.slug : workspace.workspace_slug,
        inflight_at_capacity: expected.inflight >= 3,
        evaluations: expected.evaluations.map((e) => ({ ...e, job_at_capacity: e.job_inflight >= 2 })),
      });
    }
    const busyView = body.workspaces.find((w) => w.workspace_id === busy.id)!;
    expect(busyView.pending_import_rows).toBe(3);
    expect(busyView.evaluations[0]!.running_rows).toBeGreaterThan(busyView.evaluations[0]!.job_inflight);
  });

  it('lists idle workspaces on request, filters by workspace, and is 404 for a foreign one', async () => {
    const headers = await h.as('OWNER');
    const all = ResponseSchema.parse(
      (await h.request('GET', `${PATH}?include_idle_workspaces=true`, { headers })).body,
    );
    const idleView = all.workspaces.find((w) => w.workspace_id === idle.id);
    expect(idleView).toMatchObject({
      workspace_name: 'Idle',
      inflight: 0,
      pending_dispatch_rows: 0,
      active_evaluations: 0,
      evaluations: [],
    });
    const one = ResponseSchema.parse(
      (await h.request('GET', `${PATH}?workspace_id=${busy.id}`, { headers })).body,
    );
    expect(one.workspaces.map((w) => w.workspace_id)).toEqual([busy.id]);
    const asked = ResponseSchema.parse(
      (await h.request('GET', `${PATH}?workspace_id=${idle.id}`, { headers })).body,
    );
    expect(asked.workspaces.map((w) => w.workspace_id)).toEqual([idle.id]);
    expectProblem(
      await h.request('GET', `${PATH}?workspace_id=${other.workspaceId}`, { headers }),
      404,
      'not_found',
    );
  });

  it("shows only the caller's organization", async () => {
    const theirs = ResponseSchema.parse(
      (await h.request('GET', PATH, { headers: await other.as('ADMIN') })).body,
    );
    expect(theirs.workspaces.map((w) => w.workspace_id)).toEqual([other.workspaceId]);
    expect(theirs.limits.org_inflight).toBe(theirs.workspaces[0]!.inflight);
  });
});
