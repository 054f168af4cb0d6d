/** Server, contract and SDK agree on evaluators: codes, metric rules, filters, the deprecated bulk route. */
import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type VoiceEval,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { makeAgent, makeMetric, makePersona, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

/** An agent, a scenario and a custom persona: what an evaluator references. */
const triple = async (client: VoiceEval) => ({
  agent_id: (await makeAgent(client)).id,
  scenario_id: (await makeScenario(client)).id,
  persona_id: (await makePersona(client)).id,
});

describe('evaluators', () => {
  it('create answers a readable code and a derived name; get, update and filters agree', async () => {
    const client = h.sdk();
    const metric = await makeMetric(client);
    const ids = await triple(client);
    const evaluator = await client.evaluators.create({
      ...ids,
      metric_ids: [metric.id, metric.id],
      tags: ['smoke'],
    });
    expect(evaluator.evaluator_id).toMatch(/^EV-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(evaluator).toMatchObject({ ...ids, metric_ids: [metric.id], tags: ['smoke'], llm_model: null });
    await expect(client.evaluators.get(evaluator.id)).resolves.toEqual(evaluator);
    const byCode = await client.evaluators.list({ q: evaluator.evaluator_id.toLowerCase() });
    expect(byCode.items.map((e) => e.id)).toEqual([evaluator.id]);
    const updated = await client.evaluators.update(evaluator.id, { custom_prompt: 'Be strict.', tags: [] });
    expect(updated).toMatchObject({ custom_prompt: 'Be strict.', tags: [] });
  });

  it('paginates newest first, and filters by agent', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids = await triple(client);
    const created: string[] = [];
    for (let i = 0; i < 3; i++)
      created.unshift((await client.evaluators.create({ ...ids, name: `E${i}` })).id);
    const elsewhere = await client.evaluators.create(await triple(client));
    await expectPagination((q) => client.evaluators.list(q), [elsewhere.id, ...created], 2);
    expect((await client.evaluators.list({ agent_id: ids.agent_id })).items.map((e) => e.id)).toEqual(
      created,
    );
  });

  it('draft and foreign metrics are 422 problems naming each entry; foreign references 404', async () => {
    const client = h.sdk();
    const evaluator = await client.evaluators.create(await triple(client));
    const draft = await client.metrics.createDraft({ name: unique('Draft') });
    const other = h.sdk({}, await h.createTenant());
    const foreign = await makeMetric(other);
    const error = await expectApiError(
      client.evaluators.update(evaluator.id, { metric_ids: [draft.id, foreign.id] }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['body.metric_ids.0', 'body.metric_ids.1']);
    const ids = await triple(client);
    await expectApiError(
      client.evaluators.create({ ...ids, persona_id: (await makePersona(other)).id }),
      NotFoundError,
      404,
      'not_found',
    );
  });

  it('bulk creates one evaluator per persona and says it is deprecated', async () => {
    const client = h.sdk();
    const { agent_id, scenario_id, persona_id } = await triple(client);
    const second = await makePersona(client);
    const { data, response } = await client.evaluators
      .bulk({ agent_id, scenario_id, persona_ids: [persona_id, second.id], name_prefix: 'Nightly' })
      .withResponse();
    expect(data.map((e) => e.persona_id)).toEqual([persona_id, second.id]);
    expect(data.every((e) => e.name.startsWith('Nightly / '))).toBe(true);
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(response.headers.get('link')).toBe('</api/v1/evaluators>; rel="successor-version"');
  });

  it('delete answers 204 then 404; readers cannot create', async () => {
    const client = h.sdk();
    const evaluator = await client.evaluators.create(await triple(client));
    await expect(client.evaluators.delete(evaluator.id)).resolves.toBeUndefined();
    await expectApiError(client.evaluators.get(evaluator.id), NotFoundError, 404, 'not_found');
    await expectApiError(client.evaluators.delete(randomUUID()), NotFoundError, 404, 'not_found');
    const reader = await h.sdkAs('READER');
    await expectApiError(
      reader.evaluators.create(await triple(client)),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
