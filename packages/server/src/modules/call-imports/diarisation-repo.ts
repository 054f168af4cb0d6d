import type { DiarisationError } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { emitEvents } from '../webhook-endpoints/service.js';
import { queuedForDiarisation, type RowTarget, whereTarget } from './row-repo.js';

/**
 * The settings of one transcribe request; queued rows point at it. `channels` is the server's own
 * mode for recordings whose channels are their speakers (simulated voice calls), never requested
 * through the API.
 */
export type DiarisationRow = {
  id: string;
  call_import_id: string;
  mode: 'stt_llm' | 'llm_only' | 'channels';
  llm_provider: string | null;
  llm_model: string | null;
  stt_provider: string | null;
  stt_model: string | null;
  prompt: string | null;
  created_by: string;
  created_at: Date;
};

/** A diarisation request with the organization it runs for (what a worker needs to pick providers). */
export type DiarisationContext = DiarisationRow & { organization_id: string; workspace_id: string };

/** Which rows a transcribe request may queue. */
export type QueueRules = { overwriteExisting: boolean; onlyMissing: boolean };

export const insertDiarisation = async (
  db: Knex,
  row: Omit<DiarisationRow, 'id' | 'created_at'>,
): Promise<DiarisationRow> => {
  const [created] = await db('call_import_diarisations').insert(row).returning('*');
  return created as DiarisationRow;
};

/** Removes a diarisation request that queued no row. */
export const deleteDiarisation = async (db: Knex, id: string): Promise<void> => {
  await db('call_import_diarisations').where({ id }).delete();
};

export const findDiarisationContext = (db: Knex, id: string): Promise<DiarisationContext | undefined> =>
  db('call_import_diarisations as d')
    .join('call_imports as ci', 'ci.id', 'd.call_import_id')
    .where('d.id', id)
    .first('d.*', 'ci.organization_id', 'ci.workspace_id');

/**
 * Queues every eligible row of the target for diarisation `diarisationId` in one UPDATE: rows
 * never transcribed or failed (and completed ones when overwriting), not skipped by
 * `only_missing`, with audio or a source transcript. Returns how many were queued.
 */
export const queueRows = async (
  db: Knex,
  target: RowTarget,
  diarisationId: string,
  rules: QueueRules,
  now: Date,
): Promise<number> => {
  const requeued = rules.overwriteExisting ? ['failed', 'completed'] : ['failed'];
  const update = whereTarget(db('call_import_rows'), target)
    .where((q) => q.whereNull('diarised_transcript_status').orWhereIn('diarised_transcript_status', requeued))
    .where((q) =>
      q
        .whereNotNull('recording_url')
        .orWhereNotNull('recording_storage_key')
        .orWhereNotNull('source_transcript'),
    );
  if (rules.onlyMissing) update.whereNull('source_transcript');
  return update.update({ ...queuedForDiarisation(now), diarisation_id: diarisationId });
};

/**
 * Counts the target's rows that `diarisationId` did not queue, by skip reason (first match wins):
 * `in_progress`, `already_transcribed`, `has_source_transcript`, `no_audio`. A row that looks
 * eligible was taken by a concurrent request meanwhile and counts as `in_progress`.
 */
export const countSkipped = async (
  db: Knex,
  target: RowTarget,
  diarisationId: string,
  rules: QueueRules,
): Promise<Map<string, number>> => {
  const reason = db.raw(
    `case
       when diarised_transcript_status in ('pending', 'running') then 'in_progress'
       when diarised_transcript_status = 'completed' then 'already_transcribed'
       when ?::boolean and source_transcript is not null then 'has_source_transcript'
       when recording_url is null and recording_storage_key is null and source_transcript is null then 'no_audio'
       else 'in_progress'
     end as reason`,
    [rules.onlyMissing],
  );
  const classified = whereTarget(db('call_import_rows').select(reason), target).where((q) =>
    q.whereNull('diarisation_id').orWhereNot('diarisation_id', diarisationId),
  );
  const rows: Array<{ reason: string; n: number | string }> = await db
    .from(classified.as('c'))
    .select('reason')
    .count({ n: '*' })
    .groupBy('reason');
  return new Map(rows.map((r) => [r.reason, Number(r.n)]));
};

/** How many rows of the target exist. */
export const countTarget = async (db: Knex, target: RowTarget): Promise<number> => {
  const [row] = await whereTarget(db('call_import_rows'), target).count({ n: '*' });
  return Number(row?.n ?? 0);
};

/**
 * Cancels the target's pending and running rows in one UPDATE: they become `failed` with the
 * error `cancelled` and lose their lease, so a worker still on them cannot finish them (fencing).
 */
export const cancelRows = (
  db: Knex,
  target: RowTarget,
  error: DiarisationError,
  now: Date,
): Promise<number> =>
  whereTarget(db('call_import_rows'), target)
    .whereIn('diarised_transcript_status', ['pending', 'running'])
    .update({
      diarised_transcript_status: 'failed',
      diarised_transcript_error: JSON.stringify(error),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
    });

const SETTLE_SQL = `update call_import_diarisations d set settled_at = ?
   where d.settled_at is null %FILTER%
     and not exists (select 1 from call_import_rows r
                      where r.call_import_id = d.call_import_id
                        and r.diarised_transcript_status in ('pending', 'running'))
     and exists (select 1 from call_import_rows r
                  join call_import_diarisations u on u.id = r.diarisation_id
                 where r.call_import_id = d.call_import_id and u.settled_at is null)
  returning d.id, d.call_import_id`;

type SettledImport = {
  call_import_id: string;
  organization_id: string;
  workspace_id: string;
  queued: number;
  completed: number;
  failed: number;
};

/**
 * Marks settled the transcribe requests of imports with no pending or running row left (all of
 * the import's, or those of `callImportIds`), and records one
 * `call_import.transcription.completed` per import in the same transaction (the webhook outbox),
 * counting the rows those requests queued. A request none of whose rows exists yet (being queued)
 * waits. The conditional UPDATE lets one caller settle a request, so the event is recorded once.
 * Returns the webhook deliveries queued.
 */
export const settleTranscriptions = (db: Knex, callImportIds: readonly string[] | null, now: Date) =>
  db.transaction(async (trx) => {
    const filter = callImportIds
      ? 'and d.call_import_id in (select value::uuid from json_array_elements_text(?::json))'
      : '';
    const bindings = callImportIds ? [now, JSON.stringify(callImportIds)] : [now];
    const settled = (await trx.raw(SETTLE_SQL.replace('%FILTER%', filter), bindings)).rows as Array<{
      id: string;
    }>;
    if (settled.length === 0) return 0;
    const imports: SettledImport[] = (
      await trx.raw(
        `select ci.id as call_import_id, ci.organization_id, ci.workspace_id, count(*)::int as queued,
                (count(*) filter (where r.diarised_transcript_status = 'completed'))::int as completed,
                (count(*) filter (where r.diarised_transcript_status = 'failed'))::int as failed
           from call_import_rows r join call_imports ci on ci.id = r.call_import_id
          where r.diarisation_id in (select value::uuid from json_array_elements_text(?::json))
          group by ci.id`,
        [JSON.stringify(settled.map((d) => d.id))],
      )
    ).rows;
    const events = imports.map((i) => ({
      organizationId: i.organization_id,
      type: 'call_import.transcription.completed' as const,
      data: {
        call_import_id: i.call_import_id,
        workspace_id: i.workspace_id,
        queued_rows: i.queued,
        completed_rows: i.completed,
        failed_rows: i.failed,
      },
    }));
    return emitEvents(trx, events, now);
  });
