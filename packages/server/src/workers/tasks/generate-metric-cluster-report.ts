import type { Deps } from '../../deps.js';
import { claimRows, completeLeased, type Lease, sweepExpired, whileLeased } from '../../dispatch/lease.js';
import { type RunOutcome, runReport } from '../../modules/evaluator-results/generate.js';
import { REPORT_WORK, type ReportRow, updateLeased } from '../../modules/evaluator-results/repo.js';
import { GENERATE_TASK } from '../../modules/evaluator-results/service.js';
import { DELIVER_TASK, type EventToEmit, emitEvents } from '../../modules/webhook-endpoints/service.js';
import type { Task } from '../pool.js';

/** How long a worker holds a report between renewals, in ms (renewed every third of it). */
export const REPORT_LEASE_MS = 60_000;
/** Leases a report may lose (its worker died) before it fails with `attempts_exhausted`. */
export const REPORT_MAX_ATTEMPTS = 3;

type Claimed = ReportRow & { lease_owner: string };

/** The error a completed report carries when some model calls failed. */
const summarise = (failures: RunOutcome['failures']) => {
  const codes = [...new Set(failures.map((f) => f.code))].join(', ');
  return {
    code: 'provider_error',
    message: `${failures.length} model call(s) failed (${codes}); the clusters they were to name keep their deterministic names.`,
  };
};

/** The final write of a completed run. */
const completion = (outcome: RunOutcome, now: Date) => ({
  status: 'completed',
  result: JSON.stringify(outcome.result),
  generated_at: now,
  generated_at_completed_rows: outcome.completedRows,
  policies_fingerprint: outcome.fingerprint,
  provider: outcome.provider,
  model: outcome.model,
  llm_calls_used: outcome.llmCallsUsed,
  progress: JSON.stringify({
    phase: 'done',
    completed_steps: outcome.steps.completed,
    total_steps: outcome.steps.total,
  }),
  error: outcome.failures.length > 0 ? JSON.stringify(summarise(outcome.failures)) : null,
  updated_at: now,
});

/** `metric_clusters.completed`, recorded with the report's final write (the webhook outbox). */
const completedEvent = (report: Claimed, patch: Record<string, unknown>): EventToEmit => ({
  organizationId: report.organization_id,
  type: 'metric_clusters.completed',
  data: {
    report_id: report.id,
    workspace_id: report.workspace_id,
    completed_rows: Number(patch.generated_at_completed_rows ?? 0),
    llm_calls_used: Number(patch.llm_calls_used ?? 0),
  },
});

/**
 * `metric_cluster_report.generate`: claims queued reports with leases (SKIP LOCKED, so instances
 * share the queue), renews the lease while the report is generated, writes progress and the call
 * counter only while the lease holds, and finishes with a compare-and-set on the lease token. A run
 * that throws fails the report (its last result stays readable); the sweeper re-queues reports
 * whose worker died, failing them with `attempts_exhausted` after {@link REPORT_MAX_ATTEMPTS}.
 */
export const generateMetricClusterReportTask = (deps: Deps): Task<Claimed> => ({
  name: GENERATE_TASK,
  claim: (instanceId, limit) =>
    claimRows<Claimed>(deps.db, REPORT_WORK, {
      instanceId,
      limit,
      leaseMs: REPORT_LEASE_MS,
      now: deps.now(),
    }),
  run: async (report, signal) => {
    const lease: Lease = { id: report.id, owner: report.lease_owner };
    const options = { leaseMs: REPORT_LEASE_MS, now: deps.now, outer: signal };
    let patch: Record<string, unknown>;
    try {
      const outcome = await whileLeased(deps.db, REPORT_WORK, lease, options, (held) =>
        runReport(deps, report, {
          signal: held,
          progress: async (phase, steps, used) => {
            const progress = { phase, completed_steps: steps.completed, total_steps: steps.total };
            await updateLeased(deps.db, lease, { progress: JSON.stringify(progress), llm_calls_used: used });
          },
        }),
      );
      patch = completion(outcome, deps.now());
    } catch (err) {
      deps.logger.error({ err, reportId: report.id }, 'metric_cluster_report:failed');
      const message = 'Generating the report failed unexpectedly; generate it again.';
      patch = {
        status: 'failed',
        error: JSON.stringify({ code: 'internal', message }),
        updated_at: deps.now(),
      };
    }
    // shutting down: leave the report to its lease, another worker resumes it
    if (signal.aborted) return;
    const won = await deps.db.transaction(async (trx) => {
      if (!(await completeLeased(trx, REPORT_WORK, lease, patch))) return false;
      if (patch.status === 'completed') await emitEvents(trx, [completedEvent(report, patch)], deps.now());
      return true;
    });
    if (!won) deps.logger.info({ reportId: report.id }, 'lease:fenced');
    else if (patch.status === 'completed') deps.workers.notify(DELIVER_TASK);
  },
  sweep: () => sweepExpired(deps.db, REPORT_WORK, { now: deps.now(), maxAttempts: REPORT_MAX_ATTEMPTS }),
});
