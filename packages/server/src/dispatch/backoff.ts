/**
 * The at-capacity back-off of one source on one instance's dispatcher: once a pass found items
 * waiting but no room at any level, the instance stops asking the database for that source until
 * the back-off ends or something on this instance frees or adds work (an item finished here, a job
 * created or cancelled here). Only pacing lives in memory: whether there is room is always read
 * from rows.
 */
export class AtCapacityBackoff {
  #untilMs = 0;

  /** Starts (or extends) the back-off until `untilMs` (epoch milliseconds). */
  hold(untilMs: number): void {
    this.#untilMs = Math.max(this.#untilMs, untilMs);
  }

  /** Ends the back-off now. */
  release(): void {
    this.#untilMs = 0;
  }

  /** Whether the dispatcher should skip its pass at `nowMs`. */
  active(nowMs: number): boolean {
    return nowMs < this.#untilMs;
  }
}
