/** Display helpers shared by the pages. */

export const percent = (rate: number | null | undefined): string =>
  rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)}%`;

/** `m:ss` (or `h:mm:ss`) of a position in milliseconds. */
export const clock = (ms: number): string => {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

export const dateTime = (iso: string | null): string =>
  iso === null ? '–' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const milliseconds = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '–' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms} ms`;

/**
 * The 95% Wilson score interval of `passed` out of `n` (null when nothing was scored): an interval
 * that stays inside [0, 1] and is honest for small n, where the normal approximation is not.
 */
export const wilson = (passed: number, n: number): { low: number; high: number } | null => {
  if (n === 0) return null;
  const z = 1.959964;
  const p = passed / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
};

export const interval = (passed: number, n: number): string => {
  const ci = wilson(passed, n);
  return ci === null ? '' : `${percent(ci.low)}–${percent(ci.high)}`;
};

/** `1 persona`, `3 personas`. */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
