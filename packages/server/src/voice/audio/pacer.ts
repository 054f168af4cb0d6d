import { FRAME_MS } from './frames.js';

/** Options of {@link createFramePacer}. */
export type FramePacerOptions = {
  /** Spacing of the ticks, ms. @default FRAME_MS (20) */
  frameMs?: number;
  /** The clock, ms (monotonic). @default performance.now */
  now?: () => number;
  /** Waits `ms` milliseconds, rejecting when `signal` aborts. @default a setTimeout */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborting rejects the pending and all later `next()` calls with the signal's reason. */
  signal?: AbortSignal;
  /** Lets pending I/O run before a late tick resolves. @default a setImmediate */
  yieldToIo?: () => Promise<void>;
};

const nextCheckPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Real-time ticks for sending frames: tick k is due at t0 + k × frameMs, t0 being the first
 * `next()` call, on an absolute schedule so delays never accumulate (a late tick is followed by
 * prompt ones until the schedule is met). `next()` resolves at the next tick with its lateness in
 * ms (0 when on time): the pacing jitter. A late tick first lets pending I/O run, so what arrived
 * while the process was held up is seen between the catch-up frames, not after all of them.
 */
export const createFramePacer = (options: FramePacerOptions = {}) => {
  const { frameMs = FRAME_MS, now = () => performance.now(), signal, yieldToIo = nextCheckPhase } = options;
  // the default wait: one timer at a time (ticks wait for each other), and one abort listener for
  // the pacer's life rather than one added and removed per tick
  let sleeping: { timer: NodeJS.Timeout; reject: (reason: unknown) => void } | null = null;
  signal?.addEventListener(
    'abort',
    () => {
      if (!sleeping) return;
      clearTimeout(sleeping.timer);
      sleeping.reject(signal.reason);
      sleeping = null;
    },
    { once: true },
  );
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        sleeping = null;
        resolve();
      }, ms);
      sleeping = { timer, reject };
    });
  const wait = options.wait ?? sleep;
  let start: number | null = null;
  let tick = 0;
  /** Resolves at `due` (at once, after pending I/O, when late) with the lateness. */
  const at = async (due: number): Promise<number> => {
    signal?.throwIfAborted();
    const early = due - now();
    if (early > 0) await wait(early, signal);
    else {
      await yieldToIo();
      signal?.throwIfAborted();
    }
    return Math.max(0, now() - due);
  };
  // each tick waits for the one before: a late tick (resolved after I/O) must not overtake an
  // earlier one still on its timer when `next()` calls overlap
  let previous: Promise<unknown> = Promise.resolve();
  return {
    next: (): Promise<number> => {
      start ??= now();
      const due = start + tick++ * frameMs;
      const result = previous.then(
        () => at(due),
        () => at(due),
      );
      previous = result;
      return result;
    },
  };
};

/** A pacer as {@link createFramePacer} returns it. */
export type FramePacer = ReturnType<typeof createFramePacer>;
