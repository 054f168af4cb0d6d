import type { TranscriptTurn, VoiceEvent, VoiceMeasures } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { Lease, WorkTable } from '../../dispatch/lease.js';
import { writeSimulatedCall } from '../call-imports/simulation.js';
import { type ConversationOutcome, latencySummary } from './conversation.js';
import type { CallRecord } from './repo.js';

/**
 * Simulated calls are the work items of the conversation engine (docs/decisions.md): a call whose
 * lease expired is called again from the start, with the same seed.
 */
export const CALL_WORK: WorkTable = {
  table: 'suite_run_calls',
  status: 'status',
  errorColumn: 'error',
  errorNamesProvider: false,
  stamps: { completed: 'completed_at', updated: 'updated_at' },
};

/** What a voice call adds to its final write: the measures and their events, and where its recording is stored. */
export type VoiceCompletion = {
  measures: VoiceMeasures | null;
  events: VoiceEvent[] | null;
  recordingKey: string | null;
};

/** The final write of a call: how it ended, or its typed error. */
const completionOf = (outcome: ConversationOutcome, now: Date, voice: VoiceCompletion | null) => ({
  status: outcome.ok ? 'completed' : 'failed',
  end_reason: outcome.ok ? outcome.endReason : null,
  error: outcome.ok ? null : JSON.stringify({ ...outcome.error, at: now.toISOString() }),
  turns: outcome.turns.length,
  agent_latency: JSON.stringify(latencySummary(outcome.agentLatenciesMs)),
  voice_measures: voice?.measures ? JSON.stringify(voice.measures) : null,
  voice_events: voice?.events ? JSON.stringify(voice.events) : null,
  completed_at: now,
  updated_at: now,
  lease_owner: null,
  lease_expires_at: null,
});

/**
 * Finishes a call only if this lease still holds it (compare-and-set on the token) and, in the
 * same transaction, records a completed call on its import row (a text call's transcript, or a
 * voice call's recording queued for diarisation): a call cancelled or re-leased meanwhile changes
 * nothing, so a call never gets two transcripts. Says whether it won and whether it queued a
 * recording for diarisation.
 */
export const completeCall = (
  db: Knex,
  lease: Lease,
  call: Pick<CallRecord, 'call_import_row_id'>,
  outcome: ConversationOutcome,
  now: Date,
  voice: VoiceCompletion | null = null,
): Promise<{ won: boolean; queued: boolean }> =>
  db.transaction(async (trx) => {
    const won =
      (await trx('suite_run_calls')
        .where({ id: lease.id, lease_owner: lease.owner, status: 'running' })
        .update(completionOf(outcome, now, voice))) === 1;
    if (!won || !outcome.ok) return { won, queued: false };
    const written = await writeSimulatedCall(
      trx,
      call.call_import_row_id,
      { turns: outcome.turns as TranscriptTurn[], recordingKey: voice?.recordingKey ?? null },
      now,
    );
    return { won, queued: written === 'queued' };
  });
