import type { Integration } from '@voice-eval/sdk';
import { expect } from 'vitest';
import type { Harness } from '../harness.js';
import { callsOf, getCall } from './ingest-world.js';

/** How long a test waits for a poll's effect: polls come a few hundred ms apart. */
const POLL = { timeout: 15_000, interval: 50 };

/** A little while ago: inside the reconciliation lookback, as a missed call is. */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** The integration as the API answers it (READER). */
export const readIntegration = async (h: Harness, id: string): Promise<Integration> =>
  (await h.client('READER')).integrations.get(id);

const lastPolledAt = async (h: Harness, integrationId: string) => {
  const row = await h.db('integrations').where({ id: integrationId }).first('last_polled_at');
  return row?.last_polled_at ? new Date(row.last_polled_at).getTime() : 0;
};

/**
 * Waits until a poll of the integration that started after `since` has finished: one instance
 * polls an integration at a time, so the poll after it starting says it ended.
 */
export const pollAfter = async (h: Harness, integrationId: string, since: Date) => {
  await expect.poll(() => lastPolledAt(h, integrationId), POLL).toBeGreaterThan(since.getTime());
  const started = await lastPolledAt(h, integrationId);
  await expect.poll(() => lastPolledAt(h, integrationId), POLL).toBeGreaterThan(started);
};

/** The one landed call of an external id, once it landed. */
export const landed = async (h: Harness, externalId: string) => {
  await expect.poll(async () => (await callsOf(h, externalId)).length, POLL).toBe(1);
  const [row] = await callsOf(h, externalId);
  return getCall(h, row.id);
};

/** A poll with credentials the platform refuses: recorded as `unauthorized`, nothing landed. */
export const expectRefused = async (h: Harness, integrationId: string, externalId: string) => {
  await expect
    .poll(async () => (await readIntegration(h, integrationId)).last_poll_error?.code, POLL)
    .toBe('unauthorized');
  const integration = await readIntegration(h, integrationId);
  expect(integration.last_polled_at).not.toBeNull();
  expect(integration.last_poll_error?.message).toMatch(/refused the credentials \(401\)/);
  expect(await callsOf(h, externalId)).toHaveLength(0);
};
