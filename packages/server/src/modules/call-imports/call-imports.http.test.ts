import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import {
  callRows,
  createAiProvider,
  createSchema,
  csvPart,
  importCsv,
  upload,
} from '../../../test/factories/call-imports.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { startOpenAiDouble } from '../../testing/openai-compatible.js';

let h: Harness;
let schemaId: string;
const schemas = new Map<string, string>();

/** A schema per tenant, created once. */
const schemaOf = async (tenant: Tenant) => {
  if (!schemas.has(tenant.organizationId)) schemas.set(tenant.organizationId, await createSchema(h, tenant));
  return schemas.get(tenant.organizationId)!;
};
const importOf = async (tenant: Tenant) =>
  (await importCsv(h, tenant, await schemaOf(tenant), callRows(3))).id;

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0, fetchAllowlist: ['127.0.0.1'] });
  schemaId = await schemaOf(h);
  const double = await startOpenAiDouble();
  await createAiProvider(h, h, double.url);
  return () => double.close();
});

describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/call-imports',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/call-imports' }),
    },
    {
      route: 'GET /api/v1/call-imports/:call_import_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/call-imports/${await importOf(t)}` }),
    },
    {
      route: 'GET /api/v1/call-imports/:call_import_id/row-ids',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/call-imports/${await importOf(t)}/row-ids` }),
    },
    {
      route: 'POST /api/v1/call-imports/:call_import_id/transcribe',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/call-imports/${await importOf(t)}/transcribe`,
        body: { mode: 'llm_only', row_ids: [] },
      }),
    },
    {
      route: 'POST /api/v1/call-imports/:call_import_id/cancel-diarisation',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/call-imports/${await importOf(t)}/cancel-diarisation`,
        body: {},
      }),
    },
    {
      route: 'DELETE /api/v1/call-imports/:call_import_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/call-imports/${await importOf(t)}` }),
    },
    {
      route: 'GET /api/v1/call-imports/dispatch-diagnostics',
      minRole: 'ADMIN',
      request: async () => ({ path: '/api/v1/call-imports/dispatch-diagnostics' }),
    },
  ],
);

describe('access rules: POST /api/v1/call-imports (multipart)', () => {
  const form = () => ({ schema_id: schemaId });
  const file = () => [csvPart(callRows(1))];

  it('is 401 without or with bad credentials', async () => {
    expectProblem(await upload(h, {}, form(), file()), 401, 'unauthenticated');
    expectProblem(await upload(h, { authorization: 'Bearer nope' }, form(), file()), 401);
  });

  it('is 403 for READER, 201 for MEMBER and for an API key', async () => {
    expectProblem(await upload(h, await h.as('READER'), form(), file()), 403, 'forbidden');
    expect((await upload(h, await h.as('MEMBER'), form(), file())).status).toBe(201);
    expect((await upload(h, await h.apiKey(), form(), file())).status).toBe(201);
  });

  it("is 404 in another organization's workspace, and 422 for another organization's schema", async () => {
    const other = await h.createTenant();
    const foreign = { ...(await h.as('OWNER')), 'x-workspace-id': other.workspaceId };
    expectProblem(await upload(h, foreign, form(), file()), 404, 'not_found');
    const reply = await upload(h, await other.as('OWNER'), form(), file());
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors).toEqual([
      { path: 'body.schema_id', message: expect.stringContaining(schemaId) },
    ]);
  });
});

describe('POST /api/v1/call-imports (size limit)', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await createHarness({ workerConcurrency: 0, uploadLimitBytes: 1_000 });
  });

  it('answers 413 for a file over uploadLimitBytes', async () => {
    const id = await createSchema(small, small);
    const big = csvPart(callRows(200));
    expectProblem(
      await upload(small, await small.as('MEMBER'), { schema_id: id }, [big]),
      413,
      'payload_too_large',
    );
  });
});
