import { IntegrationSchema } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';

let seq = 0;

/** Connects a platform as an integration that files its calls under `agentId` (ADMIN, through the API). */
export const connectPlatform = async (
  h: Harness,
  t: Tenant,
  platform: string,
  agentId: string | null,
  secret: string,
  publicKey: string | null = null,
  apiKey: string | null = null,
) => {
  const reply = await h.request('POST', '/api/v1/integrations', {
    headers: await t.as('ADMIN'),
    body: {
      platform,
      name: `${platform} ${++seq}`,
      secret_key: secret,
      public_key: publicKey,
      ...(apiKey ? { api_key: apiKey } : {}),
      agent_id: agentId,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return IntegrationSchema.parse(reply.body);
};

/** The production call's row once its recording download settled (stored or failed). */
export const settledRecording = async (h: Harness, id: string) => {
  await expect
    .poll(
      async () => (await h.db('production_calls').where({ id }).first('recording_status'))?.recording_status,
      {
        timeout: 15_000,
        interval: 50,
      },
    )
    .toMatch(/^(stored|failed)$/);
  return h.db('production_calls').where({ id }).first();
};
