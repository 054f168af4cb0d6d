import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { Logger } from 'pino';

/**
 * One kind of background work. `claim` takes up to `limit` items from the database (and must be
 * safe with several instances claiming at once); `run` does one item; `sweep` recovers items
 * whose workers died. Items are rows: nothing lives only in memory.
 */
export type Task<Item> = {
  name: string;
  /**
   * Items of this task worked on at once by this instance, when it differs from the pool's (long,
   * I/O-bound work such as simulated conversations). @default the pool's `concurrency`
   */
  concurrency?: number;
  claim(instanceId: string, limit: number): Promise<Item[]>;
  run(item: Item, signal: AbortSignal): Promise<void>;
  sweep?(): Promise<unknown>;
};

export type WorkerPoolOptions = {
  logger: Logger;
  /** Items worked on at once by this instance, per task (a task may set its own). @default 4 */
  concurrency?: number;
  /** Pause between claims when there was nothing to do, in ms. @default 500 */
  idleMs?: number;
  /** Pause between sweeps of expired leases, in ms. @default 5000 */
  sweepMs?: number;
};

/**
 * Runs tasks in this process with p-queue: claims as much work as there is free concurrency,
 * polls when idle, wakes at once on `notify()`, and sweeps expired leases. Postgres decides which
 * rows an instance gets; p-queue decides how many run here at once.
 */
export class WorkerPool {
  readonly instanceId = `worker-${randomUUID().slice(0, 8)}`;
  readonly #tasks: Array<Task<unknown>> = [];
  readonly #abort = new AbortController();
  readonly #loops: Promise<void>[] = [];
  readonly #wakers = new Map<string, () => void>();
  /** Tasks notified while not sleeping (e.g. mid-claim): their next sleep returns at once. */
  readonly #woken = new Set<string>();
  readonly #options: Required<WorkerPoolOptions>;
  #started = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = { concurrency: 4, idleMs: 500, sweepMs: 5000, ...options };
  }

  /** Adds a task (its `concurrency`, when set, a positive integer); its loops run from `start()`. */
  register<Item>(task: Task<Item>): this {
    const { concurrency } = task;
    if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
      throw new Error(`Task ${task.name}: concurrency must be a positive integer, not ${concurrency}.`);
    }
    this.#tasks.push(task as Task<unknown>);
    return this;
  }

  /** Starts one claim loop and one sweep loop per task. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const task of this.#tasks) {
      this.#loops.push(this.#claimLoop(task), this.#sweepLoop(task));
    }
  }

  /** True between `start()` and `stop()`: the claim loops are running (readiness). */
  get running(): boolean {
    return this.#started && !this.#abort.signal.aborted;
  }

  /** Wakes the claim loop of a task now (after new work was queued on this instance). */
  notify(taskName: string): void {
    const wake = this.#wakers.get(taskName);
    if (wake) wake();
    else this.#woken.add(taskName);
  }

  /** Stops claiming, aborts running items (their leases lapse and another worker resumes them), waits for the loops. */
  async stop(): Promise<void> {
    this.#abort.abort();
    for (const wake of this.#wakers.values()) wake();
    await Promise.all(this.#loops);
  }

  #sleep(taskName: string, ms: number): Promise<void> {
    if (this.#woken.delete(taskName)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.#wakers.get(taskName) === done) this.#wakers.delete(taskName);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.set(taskName, done);
    });
  }

  async #claimLoop(task: Task<unknown>): Promise<void> {
    const concurrency = task.concurrency ?? this.#options.concurrency;
    const queue = new PQueue({ concurrency });
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      const free = concurrency - queue.pending - queue.size;
      let claimed: unknown[] = [];
      try {
        claimed = free > 0 ? await task.claim(this.instanceId, free) : [];
      } catch (err) {
        if (!signal.aborted) this.#options.logger.error({ err, task: task.name }, 'worker:claim_failed');
      }
      for (const item of claimed) {
        queue.add(() =>
          task.run(item, signal).catch((err: unknown) => {
            this.#options.logger.error({ err, task: task.name }, 'worker:item_failed');
          }),
        );
      }
      if (signal.aborted) break;
      // backlog drained: poll later; every slot busy: claim again as soon as one frees up
      if (claimed.length < free) await this.#sleep(task.name, this.#options.idleMs);
      else
        await Promise.race([
          new Promise((resolve) => queue.once('next', resolve)),
          this.#sleep(task.name, this.#options.idleMs),
        ]);
    }
    await queue.onIdle();
  }

  async #sweepLoop(task: Task<unknown>): Promise<void> {
    const signal = this.#abort.signal;
    while (!signal.aborted && task.sweep) {
      try {
        await task.sweep();
      } catch (err) {
        if (!signal.aborted) this.#options.logger.error({ err, task: task.name }, 'worker:sweep_failed');
      }
      // rejects with an AbortError on stop, which ends the loop
      await sleep(this.#options.sweepMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
