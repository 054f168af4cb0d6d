import type { TranscriptTurn } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { isForeignKeyViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { blobKey, sniffAudio } from '../../storage/index.js';
import { wavChannelCount } from '../../voice/audio/index.js';
import {
  addProductionRow,
  addProductionTurns,
  type ProductionImport,
  ProductionImportGone,
  storeProductionRecording,
} from '../call-imports/production.js';
import { agentProductionImport, forgetProductionImport } from '../call-imports/production-import.js';
import { DIARISE_TASK } from '../call-imports/transcribe.js';
import { MONITOR_TASK } from '../monitors/advance.js';
import { enrolCall, type SamplingChoice, wasSampled } from '../monitors/sampling.js';
import type { IncomingCall } from './platforms/incoming.js';
import * as repo from './repo.js';

/** A call to land: who it belongs to, where it came from, and what it says. */
export type Landing = {
  organizationId: string;
  agent: { id: string; name: string; workspace_id: string };
  provider: string;
  integrationId: string | null;
  call: IncomingCall;
  tags?: readonly string[];
  /**
   * Whether a later delivery of a known call merges into it (a platform's events of one call);
   * false for submits, where a repeat returns the existing call unchanged.
   */
  merge: boolean;
  /** How the agent's monitors treat the call. @default 'default' */
  sampling?: SamplingChoice;
};

/**
 * The landed call, whether the delivery repeated one already landed (then nothing changed), and
 * whether a monitor of its agent will judge it.
 */
export type Landed = { call: repo.ProductionCallRow; deduplicated: boolean; sampled: boolean };

/** Audio that came with a delivery, stored before the transaction that puts it on the call's row. */
type StoredAudio = { key: string; channels: number | null };

/** Stores audio carried in the delivery; null when it is not audio (the call lands without it). */
const storeInlineAudio = async (
  deps: Deps,
  organizationId: string,
  audio: Buffer,
): Promise<StoredAudio | null> => {
  const sniffed = await sniffAudio(audio);
  if (!sniffed) return null;
  const key = blobKey('production-calls', organizationId, `${crypto.randomUUID()}.${sniffed.extension}`);
  await deps.storage.put(key, audio, { contentType: sniffed.contentType });
  return { key, channels: sniffed.format === 'wav' ? wavChannelCount(audio) : null };
};

/** The largest duration the column holds (int4); a platform's larger or broken value is dropped. */
const MAX_STORED_MS = 2_147_483_647;

/** A platform's duration as stored: whole milliseconds, or null when it is negative, absurd or absent. */
const storableDuration = (ms: number | null) =>
  ms !== null && Number.isFinite(ms) && ms >= 0 && ms <= MAX_STORED_MS ? Math.round(ms) : null;

const parametersOf = (provider: string, call: IncomingCall) => ({
  conversation_id: call.external_call_id,
  provider,
  started_at: call.started_at?.toISOString() ?? null,
  end_reason: call.end_reason,
});

/** Flat metadata without nulls a later event would otherwise erase. */
const merged = (before: repo.ProductionCallRow['metadata'], after: IncomingCall['metadata']) => {
  const out = { ...before };
  for (const [key, value] of Object.entries(after)) if (value !== null || !(key in out)) out[key] = value;
  return out;
};

/**
 * A later delivery of a known call (Retell's `call_analyzed` after `call_ended`, ElevenLabs' audio
 * after its transcript): fills what the call lacked, keeps what it had. A delivery whose event the
 * call already merged is a replay and changes nothing.
 */
const mergeInto = async (
  trx: Knex,
  target: ProductionImport,
  existing: repo.ProductionCallRow,
  landing: Landing,
  audio: StoredAudio | null,
  now: Date,
): Promise<{ landed: Landed; transcribe: boolean; audioUsed: boolean }> => {
  const { call } = landing;
  if (!landing.merge || existing.events.includes(call.event))
    return {
      landed: { call: existing, deduplicated: true, sampled: await wasSampled(trx, existing.id) },
      transcribe: false,
      audioUsed: false,
    };
  const patch: Partial<repo.ProductionCallRow> = {
    events: [...existing.events, call.event],
    started_at: existing.started_at ?? call.started_at,
    ended_at: existing.ended_at ?? call.ended_at,
    duration_ms: existing.duration_ms ?? storableDuration(call.duration_ms),
    end_reason: existing.end_reason ?? call.end_reason,
    metadata: merged(existing.metadata, call.metadata),
  };
  if (existing.turn_count === 0 && call.turns && call.turns.length > 0) {
    await addProductionTurns(trx, existing.call_import_row_id, call.turns, now);
    patch.turn_count = call.turns.length;
  }
  let transcribe = false;
  const audioUsed = audio !== null && existing.recording_status !== 'stored';
  if (audio && audioUsed) {
    transcribe = await storeProductionRecording(trx, target, existing.call_import_row_id, audio, now);
    Object.assign(patch, { recording_status: 'stored', recording_error: null, lease_owner: null });
  } else if (call.recording && existing.recording_status === 'none') {
    Object.assign(patch, {
      recording_source: call.recording,
      recording_status: 'pending',
      queued_at: now,
      attempts: 0,
    });
  }
  return {
    landed: {
      call: await repo.updateCall(trx, existing.id, patch),
      deduplicated: false,
      sampled: await wasSampled(trx, existing.id),
    },
    transcribe,
    audioUsed,
  };
};

const importOf = (deps: Deps, landing: Landing) =>
  agentProductionImport(deps, landing.organizationId, landing.agent, `ingest:${landing.provider}`);

/**
 * Lands a call as the next row of its agent's production import, exactly once per organization,
 * provider and external id however often and however concurrently it arrives: the unique key
 * decides, and the loser merges into the winner's call. A recording to fetch makes the call a
 * pending download; audio carried in the delivery is stored at once.
 */
export const landCall = async (deps: Deps, landing: Landing): Promise<Landed> => {
  const audio = landing.call.audio
    ? await storeInlineAudio(deps, landing.organizationId, landing.call.audio)
    : null;
  try {
    const target = await importOf(deps, landing);
    const landed = await land(deps, landing, target, audio).catch(async (error: unknown) => {
      if (!(error instanceof ProductionImportGone) && !isForeignKeyViolation(error)) throw error;
      // the remembered import was deleted: find or make it again
      forgetProductionImport(deps, landing.agent.id);
      return land(deps, landing, await importOf(deps, landing), audio);
    });
    if (landed.transcribe) deps.workers.notify(DIARISE_TASK);
    if (landed.call.recording_status === 'pending') deps.workers.notify(FETCH_RECORDING_TASK);
    deps.workers.notify(MONITOR_TASK);
    if (audio && !landed.audioUsed) await deps.storage.delete(audio.key);
    return { call: landed.call, deduplicated: landed.deduplicated, sampled: landed.sampled };
  } catch (error) {
    if (audio) await deps.storage.delete(audio.key).catch(() => undefined);
    throw error;
  }
};

/** One transaction: the call (its unique key decides), then its row; or the merge into the call that won. */
const land = (deps: Deps, landing: Landing, target: ProductionImport, audio: StoredAudio | null) => {
  const { agent, call } = landing;
  const now = deps.now();
  const rowId = crypto.randomUUID();
  return deps.db.transaction(async (trx) => {
    const turns: TranscriptTurn[] | null = call.turns && call.turns.length > 0 ? call.turns : null;
    const created = await repo.insertCall(trx, {
      organization_id: landing.organizationId,
      workspace_id: agent.workspace_id,
      agent_id: agent.id,
      provider: landing.provider,
      integration_id: landing.integrationId,
      external_call_id: call.external_call_id,
      call_import_id: target.callImportId,
      call_import_row_id: rowId,
      started_at: call.started_at,
      ended_at: call.ended_at,
      duration_ms: storableDuration(call.duration_ms),
      end_reason: call.end_reason,
      turn_count: turns?.length ?? 0,
      events: [call.event],
      metadata: call.metadata,
      tags: [...new Set(landing.tags ?? [])],
      recording_source: audio ? null : call.recording,
      recording_status: audio ? 'stored' : call.recording ? 'pending' : 'none',
      queued_at: now,
      created_at: now,
      updated_at: now,
    });
    if (!created) {
      const existing = await repo.findByExternalIdForUpdate(
        trx,
        landing.organizationId,
        landing.provider,
        call.external_call_id,
      );
      const merged = await mergeInto(trx, target, existing!, landing, audio, now);
      return { ...merged.landed, transcribe: merged.transcribe, audioUsed: merged.audioUsed };
    }
    await addProductionRow(
      trx,
      target,
      {
        rowId,
        conversationId: call.external_call_id,
        parameters: parametersOf(landing.provider, call),
        turns,
        provider: landing.provider,
        integrationId: landing.integrationId,
      },
      now,
    );
    const transcribe = audio ? await storeProductionRecording(trx, target, rowId, audio, now) : false;
    const sampled = await enrolCall(
      trx,
      {
        productionCallId: created.id,
        callImportRowId: rowId,
        agentId: agent.id,
        endReason: call.end_reason,
        sampling: landing.sampling ?? 'default',
      },
      now,
    );
    return { call: created, deduplicated: false, sampled, transcribe, audioUsed: audio !== null };
  });
};

/** The background task that downloads production calls' recordings. */
export const FETCH_RECORDING_TASK = 'production_call.fetch_recording';
