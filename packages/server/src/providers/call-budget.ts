/**
 * A per-job cap on provider calls (`max_llm_calls`). One logical call (`chat` or `transcribe`)
 * consumes one unit however many HTTP attempts its retries or its json_object fallback take;
 * a call refused for want of budget reaches no provider and returns `budget_exhausted`.
 */
export class CallBudget {
  readonly maxCalls: number;
  #used: number;

  /**
   * @param maxCalls the most calls the job may make (an integer >= 0).
   * @param options.used calls already made, for a job resumed from its stored counter.
   * @default options.used 0
   */
  constructor(maxCalls: number, options: { used?: number } = {}) {
    if (!Number.isInteger(maxCalls) || maxCalls < 0) {
      throw new RangeError(`maxCalls must be a non-negative integer, got ${maxCalls}`);
    }
    this.maxCalls = maxCalls;
    this.#used = Math.max(0, Math.trunc(options.used ?? 0));
  }

  /** Calls consumed so far (`llm_calls_used`). */
  get used(): number {
    return this.#used;
  }

  /** Calls still allowed. */
  get remaining(): number {
    return Math.max(0, this.maxCalls - this.#used);
  }

  /** Consumes one call if any is left; false when the budget is exhausted. */
  tryConsume(): boolean {
    if (this.#used >= this.maxCalls) return false;
    this.#used += 1;
    return true;
  }
}
