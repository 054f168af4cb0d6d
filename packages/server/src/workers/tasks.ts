import type { Deps } from '../deps.js';
import { evaluationDispatchSource } from '../modules/evaluations/dispatch-source.js';
import { conversationSource } from '../modules/suite-runs/dispatch-source.js';
import { advanceMonitorTask } from './tasks/advance-monitor.js';
import { converseSuiteRunCallTask } from './tasks/converse-suite-run-call.js';
import { deliverWebhookTask } from './tasks/deliver-webhook.js';
import { diariseCallImportRowTask } from './tasks/diarise-call-import-row.js';
import { fetchProductionRecordingTask } from './tasks/fetch-production-recording.js';
import { generateMetricClusterReportTask } from './tasks/generate-metric-cluster-report.js';
import { reconcileIntegrationsTask } from './tasks/reconcile-integrations.js';
import { scoreEvaluationRowTask } from './tasks/score-evaluation-row.js';
import { startScheduledRunsTask } from './tasks/start-scheduled-runs.js';

/**
 * Registers every background task on `deps.workers`, and every dispatch source (named like its
 * task) on `deps.dispatcher`. Each module that owns durable work adds its task here (`noun.verb`
 * names, e.g. `call_import_row.diarise`).
 */
export const registerTasks = (deps: Deps): void => {
  deps.workers.register(diariseCallImportRowTask(deps));
  deps.dispatcher.register(evaluationDispatchSource);
  deps.workers.register(scoreEvaluationRowTask(deps));
  deps.workers.register(generateMetricClusterReportTask(deps));
  // started calls get the lease their worker renews, not the dispatcher's default (evaluations')
  deps.dispatcher.register(conversationSource, { leaseMs: deps.config.simulationLeaseMs });
  deps.workers.register(converseSuiteRunCallTask(deps));
  deps.workers.register(startScheduledRunsTask(deps));
  deps.workers.register(deliverWebhookTask(deps));
  deps.workers.register(fetchProductionRecordingTask(deps));
  deps.workers.register(reconcileIntegrationsTask(deps));
  deps.workers.register(advanceMonitorTask(deps));
};
