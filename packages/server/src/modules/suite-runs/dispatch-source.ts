import { defineDispatchSource } from '../../dispatch/statements.js';
import type { CallRecord } from './repo.js';
import { CONVERSE_TASK } from './service.js';

/**
 * Simulated calls as a source of the fair dispatcher: a run is a job, its calls the items. A call
 * keeps the start of its first attempt.
 */
export const conversationSource = defineDispatchSource<CallRecord>({
  name: CONVERSE_TASK,
  jobs: 'suite_runs',
  items: 'suite_run_calls',
  jobColumn: 'run_id',
  stamps: { keepFirstStart: true },
});
