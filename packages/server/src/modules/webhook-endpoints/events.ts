import { WEBHOOK_EVENT_DATA, type WebhookEventData, type WebhookEventType } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** The background task that delivers webhook events. */
export const DELIVER_TASK = 'webhook_delivery.send';

/** One event to record: its organization, its registered type, and that type's data. */
export type EventToEmit = {
  [T in WebhookEventType]: { organizationId: string; type: T; data: WebhookEventData<T> };
}[WebhookEventType];

/**
 * The outbox: records events and queues one delivery per enabled endpoint of the
 * organization subscribed to the type, in one statement on `db`, which must be the transaction of
 * the state change causing them (so a crash keeps both or neither). Events nobody subscribed to
 * are not stored. Data is checked against the registry (a mismatch is a bug, so it throws).
 * Returns how many deliveries were queued; wake the `webhook_delivery.send` workers after commit.
 */
export const emitEvents = async (db: Knex, events: readonly EventToEmit[], now: Date): Promise<number> => {
  if (events.length === 0) return 0;
  const records = events.map((event) => ({
    organization_id: event.organizationId,
    type: event.type,
    data: WEBHOOK_EVENT_DATA[event.type].parse(event.data),
  }));
  const result = await db.raw(
    `with incoming as (
       select x.organization_id, x.type, x.data
         from json_to_recordset(?::json) as x(organization_id uuid, type text, data jsonb)
        where exists (select 1 from webhook_endpoints w
                       where w.organization_id = x.organization_id and w.enabled
                         and w.events @> jsonb_build_array(x.type))),
     recorded as (
       insert into webhook_events (organization_id, type, data, created_at)
       select organization_id, type, data, ? from incoming
       returning id, organization_id, type)
     insert into webhook_deliveries (organization_id, endpoint_id, event_id, queued_at, created_at, updated_at)
     select r.organization_id, w.id, r.id, ?, ?, ?
       from recorded r
       join webhook_endpoints w on w.organization_id = r.organization_id and w.enabled
                               and w.events @> jsonb_build_array(r.type)`,
    [JSON.stringify(records), now, now, now, now],
  );
  return result.rowCount ?? 0;
};
