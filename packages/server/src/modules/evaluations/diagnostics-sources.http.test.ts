import { contract } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { callRows, makeImport, makeMetric, startEvaluation } from '../../../test/factories/evaluations.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { createScratchTables, makeScratchJob, scratchSource } from '../../../test/scratch-dispatch-source.js';
import { SCORE_TASK } from './service.js';

const PATH = '/api/v1/call-imports/dispatch-diagnostics';
const ResponseSchema = contract.callImports.dispatchDiagnostics.responses[200];

/**
 * Dispatch diagnostics with a second dispatch source registered beside scoring: the limit numbers
 * count the items of every source (they are what the limits apply to), the workspace and
 * evaluation numbers stay scoring's. No workers, so nothing moves between the seed and the call.
 */
let h: Harness;
let third: Tenant;
let evaluationId: string;
beforeAll(async () => {
  h = await createHarness({
    env: { VOICE_EVAL_LLM_BASE_URL: 'http://127.0.0.1:9/v1', VOICE_EVAL_LLM_MODEL: 'judge-model' },
    workerConcurrency: 0,
    globalLimit: 6,
    orgLimit: 4,
    workspaceLimit: 3,
    jobLimit: 2,
  });
  await createScratchTables(h.db);
  h.server.deps.dispatcher.register(scratchSource);
  const headers = await h.as('OWNER');
  const imported = await makeImport(h, headers, callRows(5));
  const metric = await makeMetric(h, headers);
  evaluationId = (await startEvaluation(h, headers, { call_import_id: imported.id, metric_ids: [metric.id] }))
    .id;
  expect(await h.server.deps.dispatcher.claim(SCORE_TASK, 'diag', 5)).toHaveLength(2);
  // scratch items written by hand: two in flight beside the scored rows, one whose worker died
  third = await h.createTenant();
  const mine = await makeScratchJob(h.db, h, 4);
  const theirs = await makeScratchJob(h.db, third, 2);
  const live = {
    status: 'running',
    lease_owner: 'elsewhere:token',
    lease_expires_at: new Date(Date.now() + 60_000),
  };
  const items = (job: string, positions: number[]) =>
    h.db('scratch_items').where('job_id', job).whereIn('position', positions);
  await items(mine, [1, 2]).update(live);
  await items(theirs, [1]).update(live);
  await items(mine, [3]).update({ ...live, lease_expires_at: new Date(Date.now() - 60_000) });
});

describe(`GET ${PATH} with two dispatch sources`, () => {
  it('counts every source in global_inflight and org_inflight, and only scoring per workspace and evaluation', async () => {
    const reply = await h.request('GET', PATH, { headers: await h.as('ADMIN') });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = ResponseSchema.parse(reply.body);
    expect(body.limits).toMatchObject({
      global_inflight: 5,
      global_at_capacity: false,
      org_inflight: 4,
      org_at_capacity: true,
    });
    expect(body.workspaces).toHaveLength(1);
    expect(body.workspaces[0]).toMatchObject({ workspace_id: h.workspaceId, inflight: 2 });
    expect(body.workspaces[0]!.evaluations).toMatchObject([
      { evaluation_id: evaluationId, running_rows: 2, job_inflight: 2, job_at_capacity: true },
    ]);
  });

  it('shows another organization its own items of every source, and no scoring it does not have', async () => {
    const reply = await h.request('GET', `${PATH}?include_idle_workspaces=true`, {
      headers: await third.as('ADMIN'),
    });
    const body = ResponseSchema.parse(reply.body);
    expect(body.limits).toMatchObject({ global_inflight: 5, org_inflight: 1 });
    expect(body.workspaces.map((w) => [w.workspace_id, w.inflight])).toEqual([[third.workspaceId, 0]]);
  });
});
