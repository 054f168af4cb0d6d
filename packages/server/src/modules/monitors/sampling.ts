import type { Knex } from 'knex';

/** Parts per million: a rate held as an integer, so `floor(n·r)` is exact (0.29 · 100 is 28.999… in floats). */
const PPM = 1_000_000;

/** floor(n·r), exactly, for a rate given to six decimals. */
const sampledBy = (n: number, rate: number) => Math.floor((n * Math.round(rate * PPM)) / PPM);

/**
 * Whether call n (1-based) of a monitor is judged at sample rate r: iff floor(n·r) > floor((n−1)·r).
 * Exact over every prefix: of the first n calls, floor(n·r) are judged, spread evenly.
 */
export const isSampled = (n: number, rate: number): boolean => sampledBy(n, rate) > sampledBy(n - 1, rate);

/** How a submitted call asks to be treated: `force` is always judged, `skip` never. */
export type SamplingChoice = 'default' | 'force' | 'skip';

/** Whether a monitor of its agent judges (or judged) a call. */
export const wasSampled = async (db: Knex, productionCallId: string): Promise<boolean> =>
  (await db('monitor_calls').where({ production_call_id: productionCallId, sampled: true }).first('seq')) !==
  undefined;

/** A call a platform reports as ended by an error is always judged (`pipeline-error-…`, `error_llm_…`). */
const endedInError = (endReason: string | null) => endReason !== null && /error/i.test(endReason);

/** The call that arrived, as its monitors need it. */
export type ArrivingCall = {
  productionCallId: string;
  callImportRowId: string;
  agentId: string;
  endReason: string | null;
  sampling: SamplingChoice;
};

/**
 * Enrols a call that just landed with every active monitor of its agent, in the transaction that
 * lands it: each monitor numbers it (its row is locked while it counts, so concurrent calls take
 * distinct numbers) and decides whether its judge will score it. Returns whether any did.
 */
export const enrolCall = async (trx: Knex, call: ArrivingCall, now: Date): Promise<boolean> => {
  const counted: Array<{ id: string; calls_seen: number; sample_rate: number }> = await trx('monitors')
    .where({ agent_id: call.agentId, is_active: true })
    .update({ calls_seen: trx.raw('calls_seen + 1') })
    .returning(['id', 'calls_seen', 'sample_rate']);
  if (counted.length === 0) return false;
  const decided = counted.map((monitor) => ({
    monitor,
    sampled:
      call.sampling === 'force' ||
      (call.sampling === 'default' &&
        (endedInError(call.endReason) || isSampled(monitor.calls_seen, monitor.sample_rate))),
  }));
  await trx('monitor_calls').insert(
    decided.map(({ monitor, sampled }) => ({
      monitor_id: monitor.id,
      production_call_id: call.productionCallId,
      call_import_row_id: call.callImportRowId,
      seq: monitor.calls_seen,
      sampled,
      arrived_at: now,
    })),
  );
  const judged = decided.filter((d) => d.sampled).map((d) => d.monitor.id);
  if (judged.length > 0) {
    await trx('monitors')
      .whereIn('id', judged)
      .update({ calls_sampled: trx.raw('calls_sampled + 1') });
  }
  return judged.length > 0;
};
