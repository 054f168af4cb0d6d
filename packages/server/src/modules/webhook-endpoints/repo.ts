import type { Knex } from 'knex';

export type EndpointRow = {
  id: string;
  organization_id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  secret_sealed: string;
  secret_hint: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: `events` goes in as JSON text (pg would turn an array into a SQL array). */
export type EndpointWrite = Partial<Omit<EndpointRow, 'events'>> & { events?: string };

export type DeliveryRow = {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'running' | 'delivered' | 'failed';
  attempts: number;
  queued_at: Date;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  error: { code: string; message: string } | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** A delivery with its event's type (what the log lists). */
export type DeliveryListRow = DeliveryRow & { event_type: string };

export type AttemptRow = {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error_code: string | null;
  error_message: string | null;
  latency_ms: number;
  response_body: string | null;
};

const endpoints = (db: Knex) => db<EndpointRow>('webhook_endpoints');

export const findEndpoint = (db: Knex, organizationId: string, id: string) =>
  endpoints(db).where({ organization_id: organizationId, id }).first();

/** Locks the row for the rest of the transaction. */
export const findEndpointForUpdate = (db: Knex, organizationId: string, id: string) =>
  endpoints(db).where({ organization_id: organizationId, id }).forUpdate().first();

/** The organization's endpoints matching the filter, unordered: see `paginate`. */
export const endpointsQuery = (db: Knex, organizationId: string, filters: { enabled?: boolean }) => {
  const base = db('webhook_endpoints').where({ organization_id: organizationId });
  if (filters.enabled !== undefined) base.andWhere('enabled', filters.enabled);
  return base;
};

export const insertEndpoint = async (db: Knex, row: EndpointWrite): Promise<EndpointRow> => {
  const [created] = await endpoints(db)
    .insert(row as never)
    .returning('*');
  return created as EndpointRow;
};

export const updateEndpoint = async (db: Knex, id: string, patch: EndpointWrite) => {
  const [row] = await endpoints(db)
    .where({ id })
    .update(patch as never)
    .returning('*');
  return row as EndpointRow;
};

export const deleteEndpoint = (db: Knex, organizationId: string, id: string) =>
  endpoints(db).where({ organization_id: organizationId, id }).delete();

/** Fails the endpoint's deliveries still waiting for an attempt (it was disabled). */
export const failPendingDeliveries = (db: Knex, endpointId: string, error: object, now: Date) =>
  db('webhook_deliveries')
    .where({ endpoint_id: endpointId, status: 'pending' })
    .update({ status: 'failed', error: JSON.stringify(error), updated_at: now });

/** The endpoint's deliveries, with their event type, unordered: see `paginate`. */
export const deliveriesQuery = (db: Knex, endpointId: string, filters: { status?: string }) => {
  const base = db.from(
    db('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_id')
      .where('d.endpoint_id', endpointId)
      .select('d.*', 'e.type as event_type')
      .as('deliveries'),
  );
  if (filters.status) base.andWhere('status', filters.status);
  return base;
};

export const findDelivery = (
  db: Knex,
  endpointId: string,
  id: string,
): Promise<DeliveryListRow | undefined> =>
  db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where({ 'd.endpoint_id': endpointId, 'd.id': id })
    .first('d.*', 'e.type as event_type');

/** Queues a new delivery of an event to an endpoint, due now. */
export const insertDelivery = async (
  db: Knex,
  row: { organization_id: string; endpoint_id: string; event_id: string; queued_at: Date },
): Promise<DeliveryRow> => {
  const [created] = await db('webhook_deliveries').insert(row).returning('*');
  return created as DeliveryRow;
};

/** The attempt log of the given deliveries, oldest attempt first. */
export const attemptsOf = (db: Knex, deliveryIds: readonly string[]): Promise<AttemptRow[]> =>
  deliveryIds.length === 0
    ? Promise.resolve([])
    : db('webhook_delivery_attempts')
        .whereIn('delivery_id', deliveryIds)
        .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }])
        .select('*');
