import type { TranscriptTurn } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { insertDiarisation } from './diarisation-repo.js';
import * as repo from './repo.js';
import * as rowRepo from './row-repo.js';

/** One simulated call as a row of its import. */
export type SimulatedRow = { conversation_id: string; parameters: Record<string, string> };

/**
 * Creates a suite run's `simulation` import (complete at once: its rows are the calls, waiting for
 * their transcripts) inside the caller's transaction. Rows of voice calls (`recorded`) point at a
 * diarisation by channel, which transcribes each call's stereo recording once it is stored.
 * Returns the import id and each row's id by conversation id.
 */
export const createSimulationImport = async (
  trx: Knex,
  ctx: RequestContext,
  spec: { schemaId: string; dataset: string; rows: readonly SimulatedRow[]; recorded: boolean },
): Promise<{ callImportId: string; rowIds: Map<string, string> }> => {
  const email = ctx.principal.kind === 'user' ? ctx.principal.email : null;
  const created = await repo.insertImport(trx, {
    organization_id: ctx.organizationId,
    workspace_id: ctx.workspaceId,
    schema_id: spec.schemaId,
    provider: 'simulation',
    dataset: spec.dataset,
    source_format: 'simulation',
    status: 'completed',
    total_rows: spec.rows.length,
    created_by: actorLabel(ctx),
    created_by_email: email,
    last_updated_by_email: email,
  });
  const diarisation = spec.recorded
    ? await insertDiarisation(trx, {
        call_import_id: created.id,
        mode: 'channels',
        llm_provider: null,
        llm_model: null,
        stt_provider: null,
        stt_model: null,
        prompt: null,
        created_by: actorLabel(ctx),
      })
    : null;
  const rowIds = await rowRepo.insertSimulatedRows(
    trx,
    created.id,
    spec.rows.map((row, i) => ({ ...row, source_row: i + 1 })),
    diarisation?.id ?? null,
  );
  return { callImportId: created.id, rowIds };
};

/**
 * Records a finished call on its row inside the transaction that finishes the call: a voice call's
 * stereo recording (agent left, caller right) becomes the row's recording, queued for diarisation
 * like any imported recording; a text call's transcript is written as it is.
 */
export const writeSimulatedCall = async (
  trx: Knex,
  rowId: string,
  call: { turns: readonly TranscriptTurn[]; recordingKey: string | null },
  now: Date,
): Promise<'queued' | 'written'> => {
  if (call.recordingKey && (await rowRepo.queueRecordedCall(trx, rowId, call.recordingKey, now)) === 1)
    return 'queued';
  await rowRepo.writeTranscript(trx, rowId, call.turns, now, call.recordingKey);
  return 'written';
};
