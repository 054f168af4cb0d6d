import type { ConsistencyCheck, HumanLabel, MetricVersion, MonitorCall } from '@voice-eval/contract';
import type { Fixtures } from './fixture-types.js';
import type { MockReply, ParsedRequest } from './respond.js';
import type { Sequence } from './sample.js';
import type { MockDb } from './store.js';

/** What the default handlers share: the store, the fixtures and counters. */
export interface MockEnv {
  db: MockDb;
  fixtures: Fixtures;
  seq: Sequence;
  /** The next `x-request-id`. */
  requestId(): string;
  /** Scopes whose metric clusters were generated (they read as completed). */
  generatedClusterScopes: Set<string>;
  /** Signed recording URLs handed out: by signature, the path it grants and when it expires. */
  signedRecordingUrls: Map<string, { path: string; expiresAt: number }>;
  /** The calls each monitor saw, in arrival order (a repeated submit answers the same `sampled`). */
  monitorCalls: Array<MonitorCall & { monitor_id: string }>;
  /** Each metric's versions as they were made (their `status` is read against the metric). */
  metricVersions: MetricVersion[];
  /** People's labels of calls on metrics (one per person, call and metric). */
  humanLabels: HumanLabel[];
  /** Consistency checks as made (their counts are read from their evaluations' rows). */
  consistencyChecks: ConsistencyCheck[];
}

/** The implementation of one route in the default handlers. */
export type RouteImpl = (req: ParsedRequest, env: MockEnv) => MockReply | Promise<MockReply>;

/** The first path parameter: the id of `/things/:thing_id` routes. */
export const idOf = (req: ParsedRequest): string => Object.values(req.params)[0] ?? '';

export const notFound = (what: string): MockReply => ({ status: 404, body: { detail: `${what} not found` } });

/**
 * Where the mocked server is reached, as a server without a configured public URL takes it from
 * the request: its origin and the path before `/api/v1/`. Links it hands out start with it.
 */
export const publicBaseOf = (req: ParsedRequest): string => {
  const url = new URL(req.request.url);
  return `${url.origin}${url.pathname.slice(0, url.pathname.lastIndexOf('/api/v1/'))}`;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `workspace_id` for a new row: the request's workspace when it is a UUID, else the default. */
export const workspaceField = (req: ParsedRequest): { workspace_id?: string } =>
  UUID.test(req.workspaceId) ? { workspace_id: req.workspaceId } : {};

/** Slices a list into the contract's page shape. */
export const paginate = <T>(rows: T[], query: Record<string, unknown>): MockReply => {
  const page = Number(query.page ?? 1);
  const size = Number(query.page_size ?? 20);
  return {
    status: 200,
    body: { items: rows.slice((page - 1) * size, page * size), total: rows.length, page, page_size: size },
  };
};
