import { describe, expect, it } from 'vitest';
import { Page, VoiceEvalError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, client } = useMockApi();

const seedAgents = (count: number) => api.db.agents.createMany(count, () => api.fixtures.agent());

describe('list()', () => {
  it('awaits to the first page with the wire fields and hasNextPage/getNextPage', async () => {
    seedAgents(25);
    const page = await client().agents.list({ page_size: 10 });
    expect(page).toBeInstanceOf(Page);
    expect(page).toMatchObject({ total: 25, page: 1, page_size: 10 });
    expect(page.items).toHaveLength(10);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.page).toBe(2);
    const third = await second.getNextPage();
    expect(third.items).toHaveLength(5);
    expect(third.hasNextPage()).toBe(false);
    expect(() => third.getNextPage()).toThrow(VoiceEvalError);
  });

  it('lists newest first, with no duplicates across pages', async () => {
    const created = seedAgents(7);
    const ids: string[] = [];
    for await (const agent of client().agents.list({ page_size: 3 })) ids.push(agent.id);
    expect(ids).toEqual(created.map((a) => a.id).reverse());
  });

  it('for await walks every page, keeping the filters', async () => {
    seedAgents(5);
    api.db.agents.createMany(12, () => api.fixtures.agent({ call_type: 'outbound' }));
    const names: string[] = [];
    for await (const agent of client().agents.list({ page_size: 5, call_type: 'outbound' }))
      names.push(agent.name);
    expect(names).toHaveLength(12);
  });

  it('iterPages yields each page once', async () => {
    seedAgents(9);
    const first = await client().agents.list({ page_size: 4 });
    const sizes: number[] = [];
    for await (const page of first.iterPages()) sizes.push(page.items.length);
    expect(sizes).toEqual([4, 4, 1]);
  });

  it('an empty list has no next page', async () => {
    const page = await client().tags.list();
    expect(page).toMatchObject({ items: [], total: 0, page: 1, page_size: 20 });
    expect(page.hasNextPage()).toBe(false);
  });

  it('toArray stops at the limit without fetching further pages', async () => {
    seedAgents(30);
    const list = client().agents.list({ page_size: 10 });
    expect(await list.toArray({ limit: 15 })).toHaveLength(15);
    expect(await client().agents.list({ page_size: 10 }).toArray({ limit: 100 })).toHaveLength(30);
  });

  it('toArray needs a whole-number limit from 1 to 10,000', async () => {
    const list = client().agents.list();
    await expect(list.toArray({ limit: 0 })).rejects.toThrow(/limit/);
    await expect(list.toArray({ limit: 10_001 })).rejects.toThrow(/limit/);
    // @ts-expect-error the limit is required
    await expect(list.toArray({})).rejects.toThrow(/limit/);
  });

  it('withResponse gives the page with its response and request id', async () => {
    const { data, response, requestId } = await client().workspaces.list().withResponse();
    expect(data.items).toHaveLength(1);
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_mock_/);
  });

  it('paginates sub-resources: evaluation rows', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation());
    api.db.evaluationRows.createMany(6, () => api.fixtures.evaluationRow({ evaluation_id: evaluation.id }));
    api.db.evaluationRows.createMany(2, () => api.fixtures.evaluationRow());
    const rows = await client().evaluations.listRows(evaluation.id, { page_size: 4 }).toArray({ limit: 50 });
    expect(rows).toHaveLength(6);
  });

  it('filters evaluation rows by flagged results, as the server does', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation());
    const result = (flagged: boolean) => ({
      metric_id: '00000000-0000-4000-8000-0000000000aa',
      metric_name: 'Greets the caller',
      value: !flagged,
      flagged,
      rationale: null,
    });
    const flagged = api.db.evaluationRows.create(
      api.fixtures.evaluationRow({ evaluation_id: evaluation.id, results: [result(false), result(true)] }),
    );
    const clean = api.db.evaluationRows.create(
      api.fixtures.evaluationRow({ evaluation_id: evaluation.id, results: [result(false)] }),
    );
    const ids = async (query: { flagged?: boolean }) =>
      (await client().evaluations.listRows(evaluation.id, query).toArray({ limit: 10 })).map((r) => r.id);
    expect(await ids({ flagged: true })).toEqual([flagged.id]);
    expect(await ids({ flagged: false })).toEqual([clean.id]);
    expect((await ids({})).sort()).toEqual([flagged.id, clean.id].sort());
  });
});
