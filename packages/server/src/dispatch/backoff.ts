/**
 * The at-capacity back-off of one instance's dispatcher: once a pass found rows waiting but no
 * room at any level, the instance stops asking the database until the back-off ends or something
 * on this instance frees or adds work (a row finished here, an evaluation created or cancelled
 * here). Only pacing lives in memory: whether there is room is always read from rows.
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

const byOwner = new WeakMap<object, AtCapacityBackoff>();

/** The back-off of one instance, keyed by its worker pool (one per server instance). */
export const backoffOf = (owner: object): AtCapacityBackoff => {
  let backoff = byOwner.get(owner);
  if (!backoff) {
    backoff = new AtCapacityBackoff();
    byOwner.set(owner, backoff);
  }
  return backoff;
};
