import {
  contract,
  type SuiteRun,
  type SuiteRunCall,
  type SuiteRunComparison,
  type SuiteRunStatus,
} from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { type PollOptions, poll } from '../core/polling.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.suiteRuns;

/** Statuses after which a suite run no longer changes. */
export const TERMINAL_SUITE_RUN_STATUSES: ReadonlyArray<SuiteRunStatus> = [
  'completed',
  'failed',
  'cancelled',
];

/** Options of `suiteRuns.waitFor`. */
export interface SuiteRunWaitOptions extends PollOptions<SuiteRun> {
  /**
   * Called with the run on the first poll and on every later poll whose run differs from the
   * previous one (status, counts, summaries...), the final state included.
   */
  onProgress?: (run: SuiteRun) => void;
}

/** `client.suiteRuns`: simulated calls of a suite to its agent, scored with the suite's metrics. */
export class SuiteRuns extends Resource {
  /**
   * Start a run of the suite (202; the run starts `pending`). Without a body every combination
   * runs the suite's `default_runs_per_combination` times.
   */
  create(
    suiteId: string,
    body?: RequestBody<'suiteRuns', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<SuiteRun> {
    // The route's body is a required (all-optional) object: `{}` asks for the defaults.
    return this._client.request(routes.create, { params: { suite_id: suiteId }, body: body ?? {} }, options);
  }

  /** List suite runs of the workspace, newest first. */
  list(query?: RequestQuery<'suiteRuns', 'list'>, options?: RequestOptions): PagePromise<SuiteRun> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get a suite run with its call counts and summaries. */
  get(runId: string, options?: RequestOptions): ApiPromise<SuiteRun> {
    return this._client.request(routes.get, { params: { run_id: runId } }, options);
  }

  /** List a run's simulated calls, newest first. */
  listCalls(
    runId: string,
    query?: RequestQuery<'suiteRuns', 'listCalls'>,
    options?: RequestOptions,
  ): PagePromise<SuiteRunCall> {
    return this._client.list(routes.listCalls, { params: { run_id: runId }, query }, options);
  }

  /** Get one simulated call of a run (its status, error, call-import row and voice measures). */
  getCall(runId: string, callId: string, options?: RequestOptions): ApiPromise<SuiteRunCall> {
    return this._client.request(routes.getCall, { params: { run_id: runId, call_id: callId } }, options);
  }

  /** Cancel a run: pending calls never start, running calls end cancelled. */
  cancel(runId: string, options?: RequestOptions): ApiPromise<SuiteRun> {
    return this._client.request(routes.cancel, { params: { run_id: runId } }, options);
  }

  /**
   * Compare a completed run with a baseline run of the same suite (default: the run's
   * `baseline_run_id`, else the suite's previous completed run): pass rates with 95% intervals,
   * Fisher exact p-values, and `regressed` when a metric dropped significantly.
   */
  compare(
    runId: string,
    query?: RequestQuery<'suiteRuns', 'compare'>,
    options?: RequestOptions,
  ): ApiPromise<SuiteRunComparison> {
    return this._client.request(routes.compare, { params: { run_id: runId }, query }, options);
  }

  /**
   * Polls the run until it is completed, failed or cancelled, and resolves with it (a failed or
   * cancelled run resolves too: check `status`). Gives up with `PollTimeoutError` after `timeoutMs`.
   */
  waitFor(runId: string, options: SuiteRunWaitOptions = {}): Promise<SuiteRun> {
    const { onProgress, ...rest } = options;
    // A run is a plain JSON document: comparing its serialisation catches any change, whether or
    // not the server bumped `updated_at` for it.
    let previous: string | undefined;
    const onChange = (run: SuiteRun) => {
      const current = JSON.stringify(run);
      if (current === previous) return;
      previous = current;
      onProgress?.(run);
    };
    return poll(
      (signal) => this.get(runId, { signal }),
      (run) => TERMINAL_SUITE_RUN_STATUSES.includes(run.status),
      { ...rest, onProgress: onChange },
      `suite run ${runId}`,
    );
  }
}
