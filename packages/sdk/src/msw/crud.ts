import type { AppRoute } from '@ts-rest/core';
import { contract } from '@voice-eval/contract';
import type { ZodTypeAny } from 'zod';
import type { Area } from '../core/route-types.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl, workspaceField } from './env.js';
import type { Fixtures } from './fixture-types.js';
import type { ParsedRequest } from './respond.js';
import { sample } from './sample.js';
import type { Collection, MockDb } from './store.js';

type Row = { id: string } & Record<string, unknown>;

/** The collection and fixture behind each area with stored rows; `scoped` rows belong to a workspace. */
const AREAS: Partial<Record<Area, { fixture: keyof Fixtures; scoped: boolean; label: string }>> = {
  workspaces: { fixture: 'workspace', scoped: false, label: 'Workspace' },
  apiKeys: { fixture: 'apiKey', scoped: false, label: 'API key' },
  invitations: { fixture: 'invitation', scoped: false, label: 'Invitation' },
  metrics: { fixture: 'metric', scoped: true, label: 'Metric' },
  voiceBundles: { fixture: 'voiceBundle', scoped: true, label: 'Voice bundle' },
  callImportSchemas: { fixture: 'callImportSchema', scoped: true, label: 'Call-import schema' },
  callImports: { fixture: 'callImport', scoped: true, label: 'Call import' },
  evaluations: { fixture: 'evaluation', scoped: true, label: 'Evaluation' },
  tags: { fixture: 'tag', scoped: true, label: 'Tag' },
  aiProviders: { fixture: 'aiProvider', scoped: false, label: 'AI provider' },
  integrations: { fixture: 'integration', scoped: false, label: 'Integration' },
  agents: { fixture: 'agent', scoped: true, label: 'Agent' },
  scenarios: { fixture: 'scenario', scoped: true, label: 'Scenario' },
  personas: { fixture: 'persona', scoped: true, label: 'Persona' },
  evaluators: { fixture: 'evaluator', scoped: true, label: 'Evaluator' },
  evaluatorSuites: { fixture: 'evaluatorSuite', scoped: true, label: 'Evaluator suite' },
  webhookEndpoints: { fixture: 'webhookEndpoint', scoped: false, label: 'Webhook endpoint' },
  productionCalls: { fixture: 'productionCall', scoped: true, label: 'Production call' },
  monitors: { fixture: 'monitor', scoped: true, label: 'Monitor' },
  reviewQueues: { fixture: 'reviewQueue', scoped: true, label: 'Review queue' },
};

/** Rows hidden from lists unless the query asks for them, as the server does. */
const HIDDEN: Partial<Record<Area, (row: Row, query: Record<string, unknown>) => boolean>> = {
  metrics: (row, query) => query.lifecycle === undefined && row.lifecycle === 'draft',
  apiKeys: (row, query) => query.include_revoked !== true && row.revoked_at !== null,
};

const SEARCHED = ['name', 'slug', 'evaluator_id', 'conversation_id'];

const matches = (actual: unknown, wanted: unknown): boolean => {
  if (Array.isArray(wanted)) return wanted.every((w) => matches(actual, w));
  if (Array.isArray(actual)) return actual.some((a) => String(a) === String(wanted));
  return String(actual) === String(wanted);
};

/** Equality filters for query keys that are fields of the rows; `q` searches names. */
export const filterRows = <T extends Row>(rows: T[], query: Record<string, unknown>): T[] => {
  const { page: _page, page_size: _size, q, ...filters } = query;
  const needle = typeof q === 'string' ? q.toLowerCase() : undefined;
  return rows.filter(
    (row) =>
      Object.entries(filters).every(
        ([key, value]) => value === undefined || !(key in row) || matches(row[key], value),
      ) &&
      (needle === undefined ||
        SEARCHED.some(
          (f) => typeof row[f] === 'string' && (row[f] as string).toLowerCase().includes(needle),
        )),
  );
};

const collection = (db: MockDb, area: Area) => db[area as keyof MockDb] as unknown as Collection<Row>;
const scopeOf = (area: Area, req: ParsedRequest) => (AREAS[area]?.scoped ? req.workspaceId : undefined);
const build = (env: MockEnv, area: Area, values: object): Row =>
  (env.fixtures[AREAS[area]!.fixture] as (o: object) => Row)(values);

/** Masks secrets a create or update body may carry, as the server answers them. */
const masked = (body: Record<string, unknown>): Record<string, unknown> =>
  typeof body.api_key === 'string'
    ? { ...body, api_key: `${body.api_key.slice(0, 3)}...${body.api_key.slice(-4)}` }
    : body;

export const createRow = (env: MockEnv, area: Area, req: ParsedRequest, extra: object = {}): Row => {
  const scoped = AREAS[area]?.scoped ?? false;
  const value = build(env, area, {
    ...(scoped ? workspaceField(req) : {}),
    ...masked(req.body as Record<string, unknown>),
    ...extra,
  });
  return collection(env.db, area).create(value, { workspaceId: scoped ? req.workspaceId : null });
};

/** Applies `patch` to the row the path names (404 when it is not visible from the workspace). */
export const patchRow = (env: MockEnv, area: Area, req: ParsedRequest, patch: object, status = 200) => {
  const rows = collection(env.db, area);
  const row = rows.get(idOf(req), scopeOf(area, req));
  if (!row) return notFound(AREAS[area]?.label ?? 'Resource');
  const value = build(env, area, { ...row, ...patch, updated_at: env.seq.timestamp() });
  return { status, body: rows.update(row.id, value) };
};

/** The schema of one row of an area: what `get` answers, else the items of `list`. */
const itemSchemaOf = (area: Area): unknown => {
  const routes = (contract as unknown as Record<string, Record<string, AppRoute | undefined>>)[area];
  const listed = routes?.list?.responses[200] as { shape?: { items?: { element?: unknown } } } | undefined;
  return routes?.get?.responses[200] ?? listed?.shape?.items?.element;
};

const successOf = (route: AppRoute): number =>
  Number(Object.keys(route.responses).find((s) => Number(s) < 300) ?? 200);

/** The default implementation of a route, from its name and shape. */
export const crudImpl = (area: Area, name: string, route: AppRoute): RouteImpl => {
  const success = successOf(route);
  const schema = (route.responses as Record<number, unknown>)[success];
  const stored = AREAS[area] !== undefined;
  const hasId = route.path.includes(':');
  const itemSchema = itemSchemaOf(area);
  const returnsItem = schema !== undefined && schema === itemSchema;
  if (stored && name === 'list') {
    return (req, env) => {
      const hidden = HIDDEN[area];
      const rows = collection(env.db, area)
        .all(scopeOf(area, req))
        .filter((row) => !hidden?.(row, req.query));
      return paginate(filterRows(rows, req.query), req.query);
    };
  }
  if (stored && returnsItem && route.method === 'POST' && !hasId) {
    return (req, env) => ({ status: success, body: createRow(env, area, req) });
  }
  if (stored && hasId && route.method === 'GET') {
    return (req, env) => {
      const row = collection(env.db, area).get(idOf(req), scopeOf(area, req));
      return row ? { status: success, body: row } : notFound(AREAS[area]!.label);
    };
  }
  if (stored && hasId && (route.method === 'PATCH' || returnsItem)) {
    return (req, env) =>
      patchRow(env, area, req, route.method === 'PATCH' ? masked(req.body as Record<string, unknown>) : {});
  }
  if (stored && hasId && route.method === 'DELETE') {
    return (req, env) => {
      const rows = collection(env.db, area);
      const row = rows.get(idOf(req), scopeOf(area, req));
      if (!row) return notFound(AREAS[area]!.label);
      rows.delete(row.id);
      return { status: 204 };
    };
  }
  const isZod = typeof (schema as { safeParse?: unknown } | undefined)?.safeParse === 'function';
  return (_req, env) => ({
    status: success,
    body: isZod ? sample(schema as ZodTypeAny, env.seq) : undefined,
  });
};
