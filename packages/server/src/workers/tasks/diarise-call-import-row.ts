import type { Deps } from '../../deps.js';
import {
  claimRows,
  completeLeased,
  type Lease,
  sweepExpired,
  type WorkTable,
  whileLeased,
} from '../../dispatch/lease.js';
import { settleTranscriptions } from '../../modules/call-imports/diarisation-repo.js';
import { diariseRow } from '../../modules/call-imports/diarise.js';
import type { RowRecord } from '../../modules/call-imports/row-repo.js';
import { DIARISE_TASK } from '../../modules/call-imports/transcribe.js';
import { settleRunsOfImport } from '../../modules/suite-runs/settle.js';
import { DELIVER_TASK } from '../../modules/webhook-endpoints/service.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import type { Task } from '../pool.js';

/** Call-import rows are the work items of diarisation (leased and fenced: docs/decisions.md). */
export const DIARISATION_WORK: WorkTable = {
  table: 'call_import_rows',
  status: 'diarised_transcript_status',
  errorColumn: 'diarised_transcript_error',
};

type Claimed = RowRecord & { lease_owner: string };

/** The final write of a row: its transcript, or its typed error. */
const completionOf = (outcome: Awaited<ReturnType<typeof diariseRow>>, now: Date) =>
  outcome.ok
    ? {
        diarised_transcript_status: 'completed',
        diarised_transcript: JSON.stringify(outcome.turns),
        diarised_transcript_error: null,
        voice_measures: outcome.voice ? JSON.stringify(outcome.voice.measures) : null,
        voice_events: outcome.voice ? JSON.stringify(outcome.voice.events) : null,
        updated_at: now,
      }
    : {
        diarised_transcript_status: 'failed',
        diarised_transcript_error: JSON.stringify(outcome.error),
        updated_at: now,
      };

/**
 * `call_import_row.diarise`: claims pending rows with leases (SKIP LOCKED, so several instances
 * share the queue), renews the lease while a row is worked on, and finishes it with a
 * compare-and-set on the lease token, so a worker that lost its lease or a cancelled row is never
 * overwritten. The sweeper re-queues rows whose worker died, failing them with
 * `attempts_exhausted` after `diarisationMaxAttempts`.
 */
export const diariseCallImportRowTask = (deps: Deps): Task<Claimed> => {
  const leaseMs = deps.config.diarisationLeaseMs;
  const access = { deps, policy: createAddressPolicy(deps.config.fetchAllowlist) };
  return {
    name: DIARISE_TASK,
    claim: (instanceId, limit) =>
      claimRows<Claimed>(deps.db, DIARISATION_WORK, { instanceId, limit, leaseMs, now: deps.now() }),
    run: async (row, signal) => {
      const lease: Lease = { id: row.id, owner: row.lease_owner };
      const options = { leaseMs, now: deps.now, outer: signal };
      const outcome = await whileLeased(deps.db, DIARISATION_WORK, lease, options, (held) =>
        diariseRow(access, row, held),
      );
      // shutting down: leave the row to its lease, another worker resumes it
      if (signal.aborted) return;
      const won = await completeLeased(deps.db, DIARISATION_WORK, lease, completionOf(outcome, deps.now()));
      if (!won) {
        deps.logger.info({ rowId: row.id }, 'lease:fenced');
        return;
      }
      if ((await settleTranscriptions(deps.db, [row.call_import_id], deps.now())) > 0) {
        deps.workers.notify(DELIVER_TASK);
      }
      // a simulated voice call's transcript may be the last its run waits for
      await settleRunsOfImport(deps, row.call_import_id);
    },
    sweep: async () => {
      const swept = await sweepExpired(deps.db, DIARISATION_WORK, {
        now: deps.now(),
        maxAttempts: deps.config.diarisationMaxAttempts,
      });
      // the safety net of a worker that died between a row's last write and the settle
      if ((await settleTranscriptions(deps.db, null, deps.now())) > 0) deps.workers.notify(DELIVER_TASK);
      return swept;
    },
  };
};
