/** Server, contract and SDK agree on call-import schemas: parameters, usage, pagination, problems. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { importCalls, makeSchema, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('call-import schemas', () => {
  it('create answers ordered parameters with ids; get answers the same schema', async () => {
    const client = h.sdk();
    const schema = await client.callImportSchemas.create({
      name: unique('CRM export'),
      description: 'Calls from the CRM',
      parameters: [
        { name: 'call_id', type: 'conversation_id', is_required: true },
        { name: 'recording', type: 'recording_url', description: 'Audio URL' },
      ],
    });
    expect(schema).toMatchObject({ workspace_id: h.workspaceId, usage_count: 0 });
    expect(schema.parameters.map((p) => [p.name, p.type, p.ordering])).toEqual([
      ['call_id', 'conversation_id', 0],
      ['recording', 'recording_url', 1],
    ]);
    await expect(client.callImportSchemas.get(schema.id)).resolves.toEqual(schema);
  });

  it('bad parameter lists are 422 problems with field paths', async () => {
    const error = await expectApiError(
      h.sdk().callImportSchemas.create({
        name: unique('Bad'),
        parameters: [
          { name: 'id', type: 'conversation_id' },
          { name: 'Notes', type: 'string' },
          { name: 'notes', type: 'string' },
        ],
      }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors).toContainEqual({
      path: 'body.parameters.2.name',
      message: 'Duplicate parameter name "notes"',
    });
  });

  it('paginates newest first; a taken name is a 409 problem', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.unshift((await makeSchema(client)).id);
    await expectPagination((q) => client.callImportSchemas.list(q), ids, 3);
    const [newest] = (await client.callImportSchemas.list({ page_size: 1 })).items;
    await expectApiError(
      client.callImportSchemas.create({
        name: newest!.name,
        parameters: [{ name: 'id', type: 'conversation_id' }],
      }),
      ConflictError,
      409,
      'conflict',
    );
  });

  it('a schema in use counts its imports and is a 409 in_use problem to delete', async () => {
    const client = h.sdk();
    const schema = await makeSchema(client);
    await importCalls(client, [{ id: 'c-1', transcript: 'hello' }], schema.id);
    expect((await client.callImportSchemas.get(schema.id)).usage_count).toBe(1);
    await expectApiError(client.callImportSchemas.delete(schema.id), ConflictError, 409, 'in_use');
    const unused = await makeSchema(client);
    await expect(client.callImportSchemas.delete(unused.id)).resolves.toBeUndefined();
    await expectApiError(client.callImportSchemas.get(unused.id), NotFoundError, 404, 'not_found');
  });

  it('unknown ids are 404 problems; readers cannot create', async () => {
    await expectApiError(h.sdk().callImportSchemas.get(randomUUID()), NotFoundError, 404, 'not_found');
    const reader = await h.sdkAs('READER');
    await expectApiError(
      reader.callImportSchemas.create({
        name: unique('No'),
        parameters: [{ name: 'id', type: 'conversation_id' }],
      }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
