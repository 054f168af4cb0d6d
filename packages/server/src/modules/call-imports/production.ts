import type { TranscriptTurn } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { insertDiarisation } from './diarisation-repo.js';
import { queuedForDiarisation } from './row-repo.js';

/** Who a production import belongs to: its agent, in the agent's workspace. */
export type ProductionScope = { organizationId: string; workspaceId: string; agentId: string };

/**
 * An agent's production import and the diarisations its calls without turns are queued on: by
 * channel for two-channel recordings, speech-to-text then a chat model for one channel.
 */
export type ProductionImport = { callImportId: string; byChannel: string; bySpeech: string };

const findProductionImport = async (
  db: Knex,
  by: { 'ci.agent_id': string } | { 'ci.id': string },
): Promise<ProductionImport | undefined> => {
  const row = await db('call_imports as ci')
    .join('call_import_diarisations as c', (j) =>
      j.on('c.call_import_id', 'ci.id').andOnVal('c.mode', 'channels'),
    )
    .join('call_import_diarisations as s', (j) =>
      j.on('s.call_import_id', 'ci.id').andOnVal('s.mode', 'stt_llm'),
    )
    .where({ ...by, 'ci.source_format': 'production' })
    .first('ci.id as callImportId', 'c.id as byChannel', 's.id as bySpeech');
  return row as ProductionImport | undefined;
};

/** A production import by its id (with its diarisations); undefined for any other import. */
export const productionImportById = (db: Knex, callImportId: string) =>
  findProductionImport(db, { 'ci.id': callImportId });

const MODES = ['channels', 'stt_llm'] as const;

/**
 * The agent's production call import (`source_format: production`, one per agent), made on the
 * agent's first call with the diarisations its recordings without turns are transcribed by, with
 * the organization's default speech-to-text and chat models. Concurrent first calls make
 * one (a unique index on the agent); the loser reads the winner's.
 */
export const productionImportFor = async (
  db: Knex,
  scope: ProductionScope,
  spec: { schemaId: string; agentName: string; createdBy: string },
): Promise<ProductionImport> => {
  const existing = await findProductionImport(db, { 'ci.agent_id': scope.agentId });
  if (existing) return existing;
  return db.transaction(async (trx) => {
    const [created] = await trx('call_imports')
      .insert({
        organization_id: scope.organizationId,
        workspace_id: scope.workspaceId,
        agent_id: scope.agentId,
        schema_id: spec.schemaId,
        provider: 'production',
        dataset: `Production: ${spec.agentName}`.slice(0, 200),
        source_format: 'production',
        status: 'completed',
        total_rows: 0,
        created_by: spec.createdBy,
      })
      .onConflict(trx.raw("(agent_id) where source_format = 'production'"))
      .ignore()
      .returning('id');
    if (!created) return (await findProductionImport(trx, { 'ci.agent_id': scope.agentId }))!;
    const [byChannel, bySpeech] = await Promise.all(
      MODES.map((mode) =>
        insertDiarisation(trx, {
          call_import_id: created.id,
          mode,
          llm_provider: null,
          llm_model: null,
          stt_provider: null,
          stt_model: null,
          prompt: null,
          created_by: spec.createdBy,
        }),
      ),
    );
    return { callImportId: created.id as string, byChannel: byChannel!.id, bySpeech: bySpeech!.id };
  });
};

/** The production import was deleted after it was looked up: look it up (or make it) again. */
export class ProductionImportGone extends Error {
  constructor(callImportId: string) {
    super(`The production import ${callImportId} was deleted`);
  }
}

/**
 * Adds a call as the next row of the production import, inside the caller's transaction (the
 * import's row counter is locked until it commits, so rows are numbered in arrival order).
 * Fills `provider` and `telephony_integration_id` on the import from the call.
 */
export const addProductionRow = async (
  trx: Knex,
  target: ProductionImport,
  call: {
    /** The row's id, chosen by the caller (its production call refers to it). */
    rowId: string;
    conversationId: string;
    parameters: Record<string, string | null>;
    turns: readonly TranscriptTurn[] | null;
    provider: string;
    integrationId: string | null;
  },
  now: Date,
): Promise<void> => {
  const [counted] = await trx('call_imports')
    .where({ id: target.callImportId })
    .update({
      total_rows: trx.raw('total_rows + 1'),
      // a row inserted with its transcript is counted here (the counters' trigger sees updates only)
      ...(call.turns ? { completed_rows: trx.raw('completed_rows + 1') } : {}),
      // the import names the platform its calls come from; `production` once they come from several
      provider: trx.raw("case when total_rows = 0 or provider = ? then ? else 'production' end", [
        call.provider,
        call.provider,
      ]),
      telephony_integration_id: trx.raw(
        'case when total_rows = 0 then ?::uuid when telephony_integration_id is not distinct from ?::uuid then telephony_integration_id else null end',
        [call.integrationId, call.integrationId],
      ),
      updated_at: now,
    })
    .returning('total_rows');
  if (!counted) throw new ProductionImportGone(target.callImportId);
  const insert = (conversationId: string) =>
    trx('call_import_rows')
      .insert({
        id: call.rowId,
        call_import_id: target.callImportId,
        conversation_id: conversationId,
        source_row: counted.total_rows,
        parameters: JSON.stringify(call.parameters),
        ...(call.turns
          ? { diarised_transcript: JSON.stringify(call.turns), diarised_transcript_status: 'completed' }
          : {}),
        created_at: now,
        updated_at: now,
      })
      .onConflict(['call_import_id', 'conversation_id'])
      .ignore()
      .returning('id');
  // another provider's call may carry the same id: the row is then named with its provider too
  const [row] = (await insert(call.conversationId)) as Array<{ id: string }>;
  if (!row) await insert(`${call.provider}:${call.conversationId}`);
};

/**
 * Writes turns a later delivery of the call brought, unless the row has a completed transcript:
 * the platform's own turns win over a transcription under way, whose lease this ends (its worker's
 * write is then refused).
 */
export const addProductionTurns = (trx: Knex, rowId: string, turns: readonly TranscriptTurn[], now: Date) =>
  trx('call_import_rows')
    .where({ id: rowId })
    .where((q) =>
      q.whereNull('diarised_transcript_status').orWhereNot('diarised_transcript_status', 'completed'),
    )
    .update({
      diarised_transcript: JSON.stringify(turns),
      diarised_transcript_status: 'completed',
      diarised_transcript_error: null,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: now,
    });

/**
 * Puts a downloaded recording on the call's row. A row without a transcript is queued for
 * diarisation: by channel when the recording has two (the agent's on the left), else by
 * speech-to-text and a chat model (the worker is to be notified). A row with turns keeps them.
 * Returns whether the row was queued.
 */
export const storeProductionRecording = async (
  trx: Knex,
  target: ProductionImport,
  rowId: string,
  recording: { key: string; channels: number | null },
  now: Date,
): Promise<boolean> => {
  const row = await trx('call_import_rows').where({ id: rowId }).first('diarised_transcript_status');
  const transcribe = row !== undefined && row.diarised_transcript_status == null;
  const diarisation = recording.channels === 2 ? target.byChannel : target.bySpeech;
  await trx('call_import_rows')
    .where({ id: rowId })
    .update({
      recording_storage_key: recording.key,
      ...(transcribe ? { ...queuedForDiarisation(now), diarisation_id: diarisation } : { updated_at: now }),
    });
  return transcribe;
};
