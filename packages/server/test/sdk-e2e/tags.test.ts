/** Server, contract and SDK agree on tags: create, list, filter, delete, problems and roles. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('tags', () => {
  it('create answers the stored tag, with the default colour and colours lower-cased', async () => {
    const client = h.sdk();
    await expect(client.tags.create({ name: unique('Plain') })).resolves.toMatchObject({ color: '#6b7280' });
    const coloured = await client.tags.create({ name: unique('Coloured'), color: '#A1B2C3' });
    expect(coloured.color).toBe('#a1b2c3');
    const found = await client.tags.list({ q: coloured.name });
    expect(found.items).toEqual([coloured]);
  });

  it('paginates newest first across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await client.tags.create({ name: `Tag ${i}` })).id);
    await expectPagination((q) => client.tags.list(q), ids, 2);
  });

  it('invalid bodies are 422 problems naming each field', async () => {
    const error = await expectApiError(
      h.sdk().tags.create({ name: ' ', color: 'red' }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path).sort()).toEqual(['body.color', 'body.name']);
  });

  it('a duplicate name is a 409 problem, case-insensitively', async () => {
    const name = unique('Dup');
    await h.sdk().tags.create({ name });
    await expectApiError(h.sdk().tags.create({ name: name.toUpperCase() }), ConflictError, 409, 'conflict');
  });

  it('delete answers 204 (undefined), then the tag is a 404 problem', async () => {
    const client = h.sdk();
    const tag = await client.tags.create({ name: unique('Gone') });
    await expect(client.tags.delete(tag.id)).resolves.toBeUndefined();
    await expectApiError(client.tags.delete(tag.id), NotFoundError, 404, 'not_found');
    await expectApiError(client.tags.delete(randomUUID()), NotFoundError, 404, 'not_found');
  });

  it('readers list but cannot create; API keys act as the organization', async () => {
    const reader = await h.sdkAs('READER');
    await expect(reader.tags.list()).resolves.toMatchObject({ page: 1 });
    await expectApiError(reader.tags.create({ name: unique('No') }), PermissionDeniedError, 403, 'forbidden');
    const key = await h.sdkWithApiKey();
    await expect(key.tags.create({ name: unique('By key') })).resolves.toMatchObject({ color: '#6b7280' });
  });
});
