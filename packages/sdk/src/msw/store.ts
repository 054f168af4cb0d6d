import type {
  Agent,
  AIProvider,
  ApiKey,
  CallImport,
  CallImportRow,
  CallImportSchema,
  Evaluation,
  EvaluationRow,
  Evaluator,
  EvaluatorSuite,
  Integration,
  Invitation,
  Metric,
  Monitor,
  MonitorAlert,
  Persona,
  ProductionCall,
  ReviewItem,
  ReviewQueue,
  Scenario,
  SuiteRun,
  SuiteRunCall,
  Tag,
  VoiceBundle,
  WebhookDelivery,
  WebhookEndpoint,
  Workspace,
} from '@voice-eval/contract';

type Row<T> = { value: T; workspaceId: string | null };

const workspaceOf = (value: object): string | null => {
  const id = (value as { workspace_id?: unknown }).workspace_id;
  return typeof id === 'string' ? id : null;
};

const newestFirst = <T extends { id: string }>(a: T, b: T): number => {
  const ta = (a as { created_at?: string }).created_at ?? '';
  const tb = (b as { created_at?: string }).created_at ?? '';
  return tb.localeCompare(ta) || b.id.localeCompare(a.id);
};

/**
 * An in-memory table. Each row remembers its workspace: the value's `workspace_id`, or the
 * workspace it was created in; rows with no workspace are visible from every workspace.
 */
export class Collection<T extends { id: string }> {
  readonly #rows = new Map<string, Row<T>>();

  /** Stores `value` (replacing a row with the same id) and returns it. */
  create(value: T, options: { workspaceId?: string | null } = {}): T {
    const workspaceId = options.workspaceId !== undefined ? options.workspaceId : workspaceOf(value);
    this.#rows.set(value.id, { value, workspaceId });
    return value;
  }

  /** Stores `count` values made by `factory(index)`. */
  createMany(
    count: number,
    factory: (index: number) => T,
    options: { workspaceId?: string | null } = {},
  ): T[] {
    return Array.from({ length: count }, (_, i) => this.create(factory(i), options));
  }

  /** The row with `id`, if it is visible from `workspaceId` (any workspace when omitted). */
  get(id: string, workspaceId?: string): T | undefined {
    const row = this.#rows.get(id);
    return row && this.#visible(row, workspaceId) ? row.value : undefined;
  }

  /** Rows visible from `workspaceId` (all when omitted), newest first. */
  all(workspaceId?: string): T[] {
    return [...this.#rows.values()]
      .filter((row) => this.#visible(row, workspaceId))
      .map((row) => row.value)
      .sort(newestFirst);
  }

  /** Merges `patch` into the row with `id`; undefined when there is none. */
  update(id: string, patch: Partial<T>): T | undefined {
    const row = this.#rows.get(id);
    if (!row) return undefined;
    row.value = { ...row.value, ...patch };
    return row.value;
  }

  /** Removes the row with `id`; false when there was none. */
  delete(id: string): boolean {
    return this.#rows.delete(id);
  }

  clear(): void {
    this.#rows.clear();
  }

  get size(): number {
    return this.#rows.size;
  }

  #visible(row: Row<T>, workspaceId: string | undefined): boolean {
    return workspaceId === undefined || row.workspaceId === null || row.workspaceId === workspaceId;
  }
}

/** The store behind the default handlers: one collection per contract area, plus rows. */
export interface MockDb {
  workspaces: Collection<Workspace>;
  apiKeys: Collection<ApiKey>;
  invitations: Collection<Invitation>;
  metrics: Collection<Metric>;
  voiceBundles: Collection<VoiceBundle>;
  callImportSchemas: Collection<CallImportSchema>;
  callImports: Collection<CallImport>;
  /** Rows of call imports (found by `call_import_id`). */
  callImportRows: Collection<CallImportRow>;
  evaluations: Collection<Evaluation>;
  /** Scored rows of evaluations (found by `evaluation_id`). */
  evaluationRows: Collection<EvaluationRow>;
  tags: Collection<Tag>;
  aiProviders: Collection<AIProvider>;
  integrations: Collection<Integration>;
  agents: Collection<Agent>;
  scenarios: Collection<Scenario>;
  personas: Collection<Persona>;
  evaluators: Collection<Evaluator>;
  evaluatorSuites: Collection<EvaluatorSuite>;
  suiteRuns: Collection<SuiteRun>;
  /** Simulated calls of suite runs (found by `run_id`). */
  suiteRunCalls: Collection<SuiteRunCall>;
  webhookEndpoints: Collection<WebhookEndpoint>;
  /** Deliveries of webhook endpoints (found by `endpoint_id`). */
  webhookDeliveries: Collection<WebhookDelivery>;
  productionCalls: Collection<ProductionCall>;
  monitors: Collection<Monitor>;
  /** Alerts of monitors (found by `monitor_id`); the mock fires none: seed them to list some. */
  monitorAlerts: Collection<MonitorAlert>;
  reviewQueues: Collection<ReviewQueue>;
  /** Calls of review queues (found by `queue_id`), in order. */
  reviewItems: Collection<ReviewItem>;
}

export const createDb = (): MockDb => ({
  workspaces: new Collection(),
  apiKeys: new Collection(),
  invitations: new Collection(),
  metrics: new Collection(),
  voiceBundles: new Collection(),
  callImportSchemas: new Collection(),
  callImports: new Collection(),
  callImportRows: new Collection(),
  evaluations: new Collection(),
  evaluationRows: new Collection(),
  tags: new Collection(),
  aiProviders: new Collection(),
  integrations: new Collection(),
  agents: new Collection(),
  scenarios: new Collection(),
  personas: new Collection(),
  evaluators: new Collection(),
  evaluatorSuites: new Collection(),
  suiteRuns: new Collection(),
  suiteRunCalls: new Collection(),
  webhookEndpoints: new Collection(),
  webhookDeliveries: new Collection(),
  productionCalls: new Collection(),
  monitors: new Collection(),
  monitorAlerts: new Collection(),
  reviewQueues: new Collection(),
  reviewItems: new Collection(),
});
