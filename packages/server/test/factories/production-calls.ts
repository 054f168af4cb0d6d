import type { Integration } from '@voice-eval/sdk';
import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';

let seq = 0;

/** Connects a platform as an integration that files its calls under `agentId` (through the SDK as an ADMIN). */
export const connectPlatform = async (
  _h: Harness,
  t: Tenant,
  platform: string,
  agentId: string | null,
  secret: string,
  publicKey: string | null = null,
  apiKey: string | null = null,
): Promise<Integration> => {
  const client = await t.client('ADMIN');
  return client.integrations.create({
    platform,
    name: `${platform} ${++seq}`,
    secret_key: secret,
    public_key: publicKey,
    ...(apiKey ? { api_key: apiKey } : {}),
    agent_id: agentId,
  });
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
