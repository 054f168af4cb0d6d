import type { Deps } from '../deps.js';
import { diariseCallImportRowTask } from './tasks/diarise-call-import-row.js';
import { generateMetricClusterReportTask } from './tasks/generate-metric-cluster-report.js';
import { scoreEvaluationRowTask } from './tasks/score-evaluation-row.js';

/**
 * Registers every background task on `deps.workers`. Each module that owns durable work adds its
 * task here (`noun.verb` names, e.g. `call_import_row.diarise`).
 */
export const registerTasks = (deps: Deps): void => {
  deps.workers.register(diariseCallImportRowTask(deps));
  deps.workers.register(scoreEvaluationRowTask(deps));
  deps.workers.register(generateMetricClusterReportTask(deps));
};
