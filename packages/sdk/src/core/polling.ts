import { PollTimeoutError, UserAbortError } from './errors.js';

/** Options of the `waitFor...` helpers. */
export interface PollOptions<T> {
  /** Pause between polls, in milliseconds. @default 2000 */
  intervalMs?: number;
  /** Give up (with `PollTimeoutError`) after this many milliseconds. @default 600000 (10 minutes) */
  timeoutMs?: number;
  /** Called with every polled state, the final one included. */
  onProgress?: (state: T) => void;
  /** Stops waiting (with `UserAbortError`) when aborted. */
  signal?: AbortSignal;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UserAbortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Calls `read` until `isDone` accepts its result, pausing `intervalMs` between calls; errors of
 * `read` end the wait. Resolves with the final state.
 */
export const poll = async <T>(
  read: (signal: AbortSignal | undefined) => Promise<T>,
  isDone: (state: T) => boolean,
  options: PollOptions<T> = {},
  what = 'the operation',
): Promise<T> => {
  const { intervalMs = 2_000, timeoutMs = 600_000, onProgress, signal } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await read(signal);
    onProgress?.(state);
    if (isDone(state)) return state;
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      throw new PollTimeoutError(`Gave up waiting for ${what} after ${timeoutMs} ms.`, state);
    await sleep(Math.min(intervalMs, remaining), signal);
  }
};
