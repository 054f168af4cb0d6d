import { randomUUID } from 'node:crypto';
import { unique } from '../sdk-e2e/fixtures.js';
import type { Drive } from './drive.js';

const ignore = () => undefined;

/** The error statuses `driveErrors` answers, one each. */
export const DRIVEN_ERRORS = [400, 401, 403, 404, 409, 415, 422];

/**
 * One of each kind of documented error: 400 bad JSON, 401, 403, 404, 409, 415 charset and 422;
 * and an idempotent replay (`Idempotent-Replayed: true`). Recorded and validated like the rest.
 */
export const driveErrors = async ({ h, client, anonymous, options }: Drive) => {
  await anonymous.metrics.list().catch(ignore);
  const reader = await h.sdkAs('READER', h, options);
  await reader.tags.create({ name: unique('No') }).catch(ignore);
  await client.metrics.get(randomUUID()).catch(ignore);
  await client.metrics.create({ name: '' }).catch(ignore);
  const name = unique('Twice');
  await client.tags.create({ name });
  await client.tags.create({ name }).catch(ignore);

  const idempotencyKey = randomUUID();
  const once = { name: unique('Once') };
  await client.workspaces.create(once, { idempotencyKey });
  await client.workspaces.create(once, { idempotencyKey });

  const post = (contentType: string, body: string) =>
    options.fetch!(`${h.url}/api/v1/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.owner.access_token}`, 'content-type': contentType },
      body,
    }).then((response) => response.text());
  await post('application/json', '{"name":');
  await post('application/json; charset=latin-9', JSON.stringify({ name: unique('Charset') }));
};
