import type { Deps } from '../../deps.js';
import { type Lease, sweepExpired, whileLeased } from '../../dispatch/lease.js';
import { DIARISE_TASK } from '../../modules/call-imports/transcribe.js';
import { cachedProviderRecords } from '../../modules/evaluations/provider-records.js';
import { type CallOutcome, converse } from '../../modules/suite-runs/converse.js';
import type { CallRecord } from '../../modules/suite-runs/repo.js';
import { CONVERSE_TASK } from '../../modules/suite-runs/service.js';
import { settleAll, settleRun } from '../../modules/suite-runs/settle.js';
import { CALL_WORK, completeCall, type VoiceCompletion } from '../../modules/suite-runs/work-repo.js';
import { blobKey } from '../../storage/index.js';
import type { Task } from '../pool.js';

/**
 * A completed voice call's recording goes to blob storage before the call's final write, under a
 * key of its own attempt: a worker that loses the lease leaves an unreferenced blob, never
 * overwrites the winner's.
 */
const storeVoice = async (
  deps: Deps,
  call: CallRecord,
  outcome: CallOutcome,
): Promise<VoiceCompletion | null> => {
  if (!('measures' in outcome)) return null;
  const measured = { measures: outcome.measures, events: outcome.events };
  if (!outcome.ok || !outcome.recording) return { ...measured, recordingKey: null };
  const key = blobKey('simulations', call.organization_id, call.run_id, `${call.id}-${call.attempts}.wav`);
  await deps.storage.put(key, outcome.recording, { contentType: 'audio/wav' });
  return { ...measured, recordingKey: key };
};

/**
 * `suite_run_call.converse`: simulated calls are claimed by the fair dispatcher (the same limits
 * as scoring), held while the lease is renewed, and finished with a compare-and-set on the lease
 * token that also writes the transcript (a voice call's recording is queued for diarisation
 * instead), so a cancelled call or a worker that lost its lease writes nothing. The sweeper re-queues calls whose worker died (they start over with the same
 * seed) and moves runs on: when its last call ends, a run's evaluation starts; when that finishes,
 * the run completes.
 */
export const converseSuiteRunCallTask = (deps: Deps): Task<CallRecord> => {
  const records = cachedProviderRecords(deps);
  const leaseMs = deps.config.simulationLeaseMs;
  return {
    name: CONVERSE_TASK,
    concurrency: deps.config.simulationConcurrency,
    claim: (instanceId, limit) => deps.dispatcher.claim<CallRecord>(CONVERSE_TASK, instanceId, limit),
    run: async (call, signal) => {
      const lease: Lease = { id: call.id, owner: call.lease_owner! };
      const options = { leaseMs, now: deps.now, outer: signal };
      const outcome = await whileLeased(deps.db, CALL_WORK, lease, options, (held) =>
        converse(deps, call, held, records),
      );
      // shutting down: leave the call to its lease, another worker calls again
      if (signal.aborted) return;
      const { won, queued } = await completeCall(
        deps.db,
        lease,
        call,
        outcome,
        deps.now(),
        await storeVoice(deps, call, outcome),
      );
      if (!won) deps.logger.info({ callId: call.id }, 'lease:fenced');
      else if (queued) deps.workers.notify(DIARISE_TASK);
      else await settleRun(deps, call.run_id);
      deps.dispatcher.wake();
    },
    sweep: async () => {
      const swept = await sweepExpired(deps.db, CALL_WORK, {
        now: deps.now(),
        maxAttempts: deps.config.simulationMaxAttempts,
      });
      const settled = await settleAll(deps);
      if (swept.requeued > 0 || settled > 0) deps.dispatcher.wake();
      return swept;
    },
  };
};
