import type { METRIC_LIFECYCLES, METRIC_SCOPES, METRIC_TYPES, SELECTION_MODES } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** Metric value kinds, scope, lifecycle and selection mode, as the contract enumerates them. */
export type MetricType = (typeof METRIC_TYPES)[number];
export type MetricScope = (typeof METRIC_SCOPES)[number];
export type MetricLifecycle = (typeof METRIC_LIFECYCLES)[number];
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** A `metrics` row as read; jsonb columns arrive parsed. */
export type MetricRow = {
  id: string;
  organization_id: string;
  workspace_id: string | null;
  scope: MetricScope;
  name: string;
  description: string;
  example: string;
  metric_type: MetricType;
  metric_category: string;
  trigger: string;
  enabled: boolean;
  is_default: boolean;
  metric_origin: string;
  supported_surfaces: string[];
  enabled_surfaces: string[];
  custom_data_type: string;
  custom_config: Record<string, unknown>;
  tags: string[];
  capture_rationale: boolean;
  parent_metric_id: string | null;
  selection_mode: SelectionMode | null;
  allow_discovery: boolean;
  compare_transcripts: boolean;
  lifecycle: MetricLifecycle;
  /** The current version's number; a child's is its parent's. */
  version: number;
  promoted_from_draft_at: Date | null;
  studio_notes: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns a create writes (the rest have defaults). */
export type MetricWrite = Omit<
  MetricRow,
  'id' | 'created_at' | 'updated_at' | 'promoted_from_draft_at' | 'version'
>;

/** The organization and the workspace a request acts in. */
export type Scope = { organizationId: string; workspaceId: string };

/** List filters; `lifecycle` is already defaulted to `active` by the service. */
export type MetricFilters = {
  scope?: MetricScope;
  lifecycle: MetricLifecycle;
  parent_metric_id?: string;
  tag?: string;
  q?: string;
};

const JSON_COLUMNS = ['supported_surfaces', 'enabled_surfaces', 'custom_config', 'tags'] as const;

/** jsonb values go to pg as JSON text (pg would send arrays as Postgres arrays). */
const encode = (values: Partial<MetricRow>) => {
  const out: Record<string, unknown> = { ...values };
  for (const column of JSON_COLUMNS) if (column in out) out[column] = JSON.stringify(out[column]);
  return out;
};

/** Metrics the request can see: the organization's, in its workspace or of organization scope. */
const visible = (db: Knex, scope: Scope) =>
  db('metrics')
    .where('metrics.organization_id', scope.organizationId)
    .andWhere((w) => w.where('metrics.workspace_id', scope.workspaceId).orWhereNull('metrics.workspace_id'));

/** A metric the request can see (404 material otherwise). */
export const findMetric = (db: Knex, scope: Scope, id: string) =>
  visible(db, scope).andWhere('metrics.id', id).first<MetricRow | undefined>();

/** Children of these parents, by case-insensitive name, then id. */
export const childrenOf = (db: Knex, parentIds: readonly string[]): Promise<MetricRow[]> =>
  parentIds.length === 0
    ? Promise.resolve([])
    : db('metrics').whereIn('parent_metric_id', parentIds).orderByRaw('lower(name) asc, id asc');

/**
 * Visible metrics matching the filters, unordered (see `paginate`). Without `parent_metric_id`
 * only top-level metrics match: children are inlined in their parents.
 */
export const metricsQuery = (db: Knex, scope: Scope, filters: MetricFilters) => {
  const base = visible(db, scope).andWhere('lifecycle', filters.lifecycle);
  if (filters.parent_metric_id) base.andWhere('parent_metric_id', filters.parent_metric_id);
  else base.whereNull('parent_metric_id');
  if (filters.scope) base.andWhere('scope', filters.scope);
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  if (filters.tag) {
    base.whereRaw(
      'exists (select 1 from jsonb_array_elements_text(metrics.tags) t where lower(t) = lower(?))',
      [filters.tag],
    );
  }
  return base;
};

/** Inserts a metric and returns the stored row. */
export const insertMetric = async (db: Knex, row: MetricWrite): Promise<MetricRow> => {
  const [created] = await db('metrics').insert(encode(row)).returning('*');
  return created as MetricRow;
};

/** Writes a patch and bumps `updated_at`. */
export const updateMetric = async (db: Knex, id: string, patch: Partial<MetricRow>): Promise<MetricRow> => {
  const [row] = await db('metrics')
    .where({ id })
    .update({ ...encode(patch), updated_at: db.fn.now() })
    .returning('*');
  return row as MetricRow;
};

/** Makes a draft and its draft children active, stamping `promoted_from_draft_at`. */
export const promoteDraft = (db: Knex, id: string, at: Date) =>
  db('metrics')
    .where((w) => w.where({ id }).orWhere({ parent_metric_id: id }))
    .andWhere({ lifecycle: 'draft' })
    .update({ lifecycle: 'active', promoted_from_draft_at: at, updated_at: at });

/** Deletes a metric; its children go with it (ON DELETE CASCADE). */
export const deleteMetric = (db: Knex, id: string) => db('metrics').where({ id }).delete();

/** How many children a metric has, whatever their lifecycle. */
export const childCount = async (db: Knex, id: string): Promise<number> => {
  const [row] = await db('metrics').where({ parent_metric_id: id }).count({ n: '*' });
  return Number(row?.n ?? 0);
};

/** SQL of the from-discovered slug: lower-case, runs of non-alphanumerics as `_`, trimmed of `_`. */
const SLUG_SQL = "btrim(regexp_replace(lower(name), '[^a-z0-9]+', '_', 'g'), '_')";

/** A visible top-level metric whose name has this slug, if any. */
export const findBySlug = (db: Knex, scope: Scope, slug: string) =>
  visible(db, scope)
    .whereNull('parent_metric_id')
    .andWhereRaw(`${SLUG_SQL} = ?`, [slug])
    .first<MetricRow | undefined>();

/**
 * Active top-level metrics the scope can see whose name's slug is one of `slugs`: slug -> metric
 * id (the oldest, should two share a slug), what a stored discovery's key resolves to.
 */
export const activeIdsBySlug = async (
  db: Knex,
  scope: Scope,
  slugs: readonly string[],
): Promise<Map<string, string>> => {
  if (slugs.length === 0) return new Map();
  const rows: Array<{ id: string; slug: string }> = await visible(db, scope)
    .whereNull('parent_metric_id')
    .andWhere('lifecycle', 'active')
    .whereRaw(`${SLUG_SQL} = any(?)`, [[...new Set(slugs)]])
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .select('id', db.raw(`${SLUG_SQL} as slug`));
  const bySlug = new Map<string, string>();
  for (const row of rows) if (!bySlug.has(row.slug)) bySlug.set(row.slug, row.id);
  return bySlug;
};

/** Serialises from-discovered promotions of one key in one workspace until the transaction ends. */
export const lockKey = (db: Knex, scope: Scope, key: string) =>
  db.raw('select pg_advisory_xact_lock(hashtext(?))', [
    `metrics:${scope.organizationId}:${scope.workspaceId}:${key}`,
  ]);

/** Names of visible top-level metrics, to steer generated suggestions away from duplicates. */
export const visibleNames = (db: Knex, scope: Scope, limit: number): Promise<string[]> =>
  visible(db, scope).whereNull('parent_metric_id').orderBy('created_at', 'desc').limit(limit).pluck('name');

/**
 * How many evaluators and evaluator suites (their modules' tables) list any of these metric ids
 * in their `metric_ids` jsonb array.
 */
export const referenceCount = async (db: Knex, ids: readonly string[]): Promise<number> => {
  let total = 0;
  for (const table of ['evaluators', 'evaluator_suites']) {
    const [row] = await db(table)
      .where((w) => {
        for (const id of ids) w.orWhereRaw('metric_ids @> ?::jsonb', [JSON.stringify([id])]);
      })
      .count({ n: '*' });
    total += Number(row?.n ?? 0);
  }
  return total;
};

/** Active metrics among these ids that the request can see. */
export const findActive = (db: Knex, scope: Scope, ids: readonly string[]): Promise<MetricRow[]> =>
  visible(db, scope).whereIn('metrics.id', ids).andWhere('lifecycle', 'active');
