/** Server, contract and SDK agree on integrations: write-only secrets, defaults, filters, roles. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { readIntegrationCredentials } from '../../src/modules/integrations/service.js';
import { expectApiError, expectPagination } from './conformance.js';
import { unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

const SECRET = 'vapi-secret-5e1f0c2d9a8b7c6d';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('integrations', () => {
  it('the secret is write-only: never answered, stored for server-side use', async () => {
    const client = h.sdk();
    const { ingest_token, ...created } = await client.integrations.create({
      platform: 'VAPI',
      name: unique('Prod'),
      secret_key: SECRET,
      public_key: 'pk_live_abc',
    });
    // Vapi's ingest token is answered once, on create
    expect(ingest_token).toMatch(/^vit_/);
    expect(created).toMatchObject({ platform: 'vapi', public_key: 'pk_live_abc', routing_mode: 'inherit' });
    expect(JSON.stringify(created)).not.toContain(SECRET);
    await expect(client.integrations.get(created.id)).resolves.toEqual(created);
    const credentials = await readIntegrationCredentials(h.server.deps, h.organizationId, created.id);
    expect(credentials?.secret_key).toBe(SECRET);
    const rotated = await client.integrations.update(created.id, { secret_key: 'rotated-secret-1' });
    expect(rotated).toEqual({ ...created, updated_at: rotated.updated_at });
    expect((await readIntegrationCredentials(h.server.deps, h.organizationId, created.id))?.secret_key).toBe(
      'rotated-secret-1',
    );
    // an inactive integration's credentials are not used
    await expect(client.integrations.update(created.id, { is_active: false })).resolves.toMatchObject({
      is_active: false,
    });
    expect(await readIntegrationCredentials(h.server.deps, h.organizationId, created.id)).toBeNull();
  });

  it('the first integration of a platform is its default; lists filter by platform, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.unshift(
        (await client.integrations.create({ platform: 'vapi', name: `V${i}`, secret_key: SECRET })).id,
      );
    }
    const retell = await client.integrations.create({ platform: 'retell', name: 'R', secret_key: SECRET });
    expect(retell.is_default).toBe(true);
    await expectPagination((q) => client.integrations.list(q), [retell.id, ...ids], 2);
    const vapi = await client.integrations.list({ platform: 'vapi' });
    expect(vapi.items.map((i) => [i.id, i.is_default])).toEqual([
      [ids[0], false],
      [ids[1], false],
      [ids[2], true],
    ]);
  });

  it('duplicates are 409 problems, an empty secret a 422 problem', async () => {
    const client = h.sdk();
    const name = unique('Dup');
    await client.integrations.create({ platform: 'vapi', name, secret_key: SECRET });
    await expectApiError(
      client.integrations.create({ platform: 'vapi', name: name.toLowerCase(), secret_key: SECRET }),
      ConflictError,
      409,
      'conflict',
    );
    const error = await expectApiError(
      client.integrations.create({ platform: 'vapi', name: unique('Empty'), secret_key: '' }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['body.secret_key']);
  });

  it('delete answers 204; foreign and unknown ids are 404 problems; members cannot write', async () => {
    const client = h.sdk();
    const created = await client.integrations.create({
      platform: 'vapi',
      name: unique('Gone'),
      secret_key: SECRET,
    });
    const other = h.sdk({}, await h.createTenant());
    await expectApiError(other.integrations.delete(created.id), NotFoundError, 404, 'not_found');
    await expect(client.integrations.delete(created.id)).resolves.toBeUndefined();
    await expectApiError(client.integrations.get(created.id), NotFoundError, 404, 'not_found');
    await expectApiError(client.integrations.update(randomUUID(), { name: 'x' }), NotFoundError, 404);
    const member = await h.sdkAs('MEMBER');
    await expect(member.integrations.list()).resolves.toMatchObject({ page: 1 });
    await expectApiError(
      member.integrations.create({ platform: 'vapi', name: unique('No'), secret_key: SECRET }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
