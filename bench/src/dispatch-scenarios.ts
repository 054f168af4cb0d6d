/** Tenants and scenarios of the dispatch benchmark, set up through the public HTTP API. */

export type Api = {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: replies of many shapes, read field by field
  call: <T = any>(method: string, path: string, token: string, body?: unknown, ws?: string) => Promise<T>;
};
export type Workspace = { id: string; importId: string; tags: string[]; rowIds: string[] };
export type Tenant = { label: string; token: string; metricId: string; workspaces: Workspace[] };

/** JSON (or multipart) calls with a bearer token, optionally in a workspace; throws on a non-2xx. */
export const apiOf = (url: string): Api => ({
  url,
  call: async (method, path, token, body, ws) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(ws ? { 'x-workspace-id': ws } : {}),
        ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  },
});

/** An organization (the tenant) with `spaces` workspaces, each importing `rows` calls tagged `<label>.<ws>.<n>`. */
export const makeTenant = async (api: Api, label: string, spaces: number, rows: number): Promise<Tenant> => {
  const signup = await fetch(`${api.url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now()}@bench.test`, password: 'bench password' }),
  });
  const session = await signup.json();
  const token = session.access_token as string;
  const metric = await api.call('POST', '/api/v1/metrics', token, {
    name: 'Resolved',
    metric_type: 'boolean',
    scope: 'organization',
  });
  const workspaces: Workspace[] = [];
  for (let w = 0; w < spaces; w++) {
    const ws =
      w === 0
        ? undefined
        : (await api.call('POST', '/api/v1/workspaces', token, { name: `${label} ${w}` })).id;
    const schema = await api.call(
      'POST',
      '/api/v1/call-import-schemas',
      token,
      {
        name: 'Calls',
        parameters: [
          { name: 'conversation_id', type: 'conversation_id' },
          { name: 'transcript', type: 'transcript' },
        ],
      },
      ws,
    );
    const tags = Array.from({ length: rows }, (_, i) => `${label}.${w}.${i + 1}`);
    const csv = [
      'conversation_id,transcript',
      ...tags.map((t) => `${t},"Agent: hi. Caller: help. row=${t}"`),
    ].join('\n');
    const form = new FormData();
    form.append('schema_id', schema.id);
    form.append('file', new File([csv], 'calls.csv', { type: 'text/csv' }));
    const imported = await api.call('POST', '/api/v1/call-imports', token, form, ws);
    const detail = await api.call(
      'GET',
      `/api/v1/call-imports/${imported.id}?row_limit=5000`,
      token,
      undefined,
      ws,
    );
    const byTag = new Map<string, string>(
      detail.rows.map((r: { id: string; conversation_id: string }) => [r.conversation_id, r.id]),
    );
    workspaces.push({
      id: ws ?? detail.workspace_id,
      importId: imported.id,
      tags,
      rowIds: tags.map((t) => byTag.get(t)!),
    });
  }
  return { label, token, metricId: metric.id, workspaces };
};

/** What a scenario does: evaluations before dispatch starts, and arrivals while it runs. */
export type Run = {
  evaluate(tenant: Tenant, workspace: number, from: number, to: number): Promise<void>;
  sleep(ms: number): Promise<void>;
};
export type Scenario = {
  name: string;
  tenants: Array<[label: string, workspaces: number, rows: number]>;
  light: string;
  before(run: Run, t: Record<string, Tenant>): Promise<void>;
  during?(run: Run, t: Record<string, Tenant>): Promise<void>;
};

/**
 * balanced: four equal tenants; skewed: one with 100x the other's backlog; sybil: one organization
 * spreading its backlog over 30 workspaces against one with a single workspace; trickle: a light
 * tenant adding a row every 400 ms beside two busy ones; idle-return: a tenant that drains, goes
 * idle and comes back while another stays busy. `light` is the tenant whose p99 wait is reported.
 */
export const SCENARIOS: Scenario[] = [
  {
    name: 'balanced',
    tenants: [
      ['bal-a', 1, 150],
      ['bal-b', 1, 150],
      ['bal-c', 1, 150],
      ['bal-d', 1, 150],
    ],
    light: 'bal-d',
    before: async (run, t) => {
      for (const label of ['bal-a', 'bal-b', 'bal-c', 'bal-d']) await run.evaluate(t[label]!, 0, 0, 150);
    },
  },
  {
    name: 'skewed',
    tenants: [
      ['skew-heavy', 1, 3000],
      ['skew-light', 1, 30],
    ],
    light: 'skew-light',
    before: async (run, t) => {
      await run.evaluate(t['skew-heavy']!, 0, 0, 3000);
      await run.evaluate(t['skew-light']!, 0, 0, 30);
    },
  },
  {
    name: 'sybil',
    tenants: [
      ['sybil', 30, 15],
      ['honest', 1, 400],
    ],
    light: 'honest',
    before: async (run, t) => {
      for (let w = 0; w < 30; w++) {
        if (w === 15) await run.evaluate(t.honest!, 0, 0, 400);
        await run.evaluate(t.sybil!, w, 0, 15);
      }
    },
  },
  {
    name: 'trickle',
    tenants: [
      ['trk-a', 1, 400],
      ['trk-b', 1, 400],
      ['trk-light', 1, 40],
    ],
    light: 'trk-light',
    before: async (run, t) => {
      await run.evaluate(t['trk-a']!, 0, 0, 400);
      await run.evaluate(t['trk-b']!, 0, 0, 400);
    },
    during: async (run, t) => {
      for (let i = 0; i < 20; i++) {
        await run.sleep(400);
        await run.evaluate(t['trk-light']!, 0, i, i + 1);
      }
    },
  },
  {
    name: 'idle-return',
    tenants: [
      ['ret-busy', 1, 800],
      ['ret-back', 1, 80],
    ],
    light: 'ret-back',
    before: async (run, t) => {
      await run.evaluate(t['ret-busy']!, 0, 0, 800);
      await run.evaluate(t['ret-back']!, 0, 0, 16);
    },
    during: async (run, t) => {
      await run.sleep(3_000);
      await run.evaluate(t['ret-back']!, 0, 16, 80);
    },
  },
];
