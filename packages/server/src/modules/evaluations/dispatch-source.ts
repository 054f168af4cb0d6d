import { defineDispatchSource } from '../../dispatch/statements.js';
import { SCORE_TASK } from './service.js';
import { SCORING_CONTEXT_SELECT, type ScoringContext } from './work-repo.js';

/** Name of the unique key that de-duplicates evaluation dispatches: one entry per (row, attempt). */
export const DISPATCH_DEDUPE_CONSTRAINT = 'evaluation_dispatches_dedupe';

/** An evaluation row as the dispatcher hands it to a worker: leased, with everything needed to score it. */
export type DispatchedEvaluationRow = ScoringContext & {
  workspace_id: string;
  call_import_row_id: string;
  conversation_id: string;
  lease_owner: string;
  attempts: number;
};

/**
 * Evaluation rows as a dispatch source: jobs are evaluations, items their rows, scored by
 * `SCORE_TASK`. Each (row, attempt) is logged in `evaluation_dispatches` before the row starts, so
 * a row is handed out once per attempt; a dispatched row comes with its scoring context.
 */
export const evaluationDispatchSource = defineDispatchSource<DispatchedEvaluationRow>({
  name: SCORE_TASK,
  jobs: 'evaluations',
  items: 'evaluation_rows',
  jobColumn: 'evaluation_id',
  stamps: { keepFirstStart: false },
  dedupeLog: { table: 'evaluation_dispatches', itemColumn: 'evaluation_row_id', jobColumn: 'evaluation_id' },
  select: SCORING_CONTEXT_SELECT,
});
