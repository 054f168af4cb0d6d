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

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Real-time ticks for sending frames: tick k is due at t0 + k × frameMs, t0 being the first
 * `next()` call, on an absolute schedule so delays never accumulate (a late tick is followed by
 * prompt ones until the schedule is met). `next()` resolves at the next tick with its lateness in
 * ms (0 when on time): the pacing jitter. A late tick first lets pending I/O run, so what arrived
 * while the process was held up is seen between the catch-up frames, not after all of them.
 */
export const createFramePacer = (options: FramePacerOptions = {}) => {
  const {
    frameMs = FRAME_MS,
    now = () => performance.now(),
    wait = sleep,
    signal,
    yieldToIo = nextCheckPhase,
  } = options;
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
