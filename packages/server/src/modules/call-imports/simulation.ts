import type { TranscriptTurn } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import * as repo from './repo.js';
import * as rowRepo from './row-repo.js';

/** One simulated call as a row of its import. */
export type SimulatedRow = { conversation_id: string; parameters: Record<string, string> };

/**
 * Creates a suite run's `simulation` import (complete at once: its rows are the calls, waiting for
 * their transcripts) inside the caller's transaction. Returns the import id and each row's id by
 * conversation id.
 */
export const createSimulationImport = async (
  trx: Knex,
  ctx: RequestContext,
  spec: { schemaId: string; dataset: string; rows: readonly SimulatedRow[] },
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
  const rowIds = await rowRepo.insertSimulatedRows(
    trx,
    created.id,
    spec.rows.map((row, i) => ({ ...row, source_row: i + 1 })),
  );
  return { callImportId: created.id, rowIds };
};

/**
 * Records a finished call's transcript on its row, and a voice call's stereo recording (agent left,
 * caller right) as the row's recording, inside the transaction that finishes the call.
 */
export const writeSimulatedTranscript = (
  trx: Knex,
  rowId: string,
  turns: readonly TranscriptTurn[],
  now: Date,
  recordingKey: string | null = null,
) => rowRepo.writeTranscript(trx, rowId, turns, now, recordingKey);
