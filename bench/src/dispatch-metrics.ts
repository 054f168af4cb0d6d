/**
 * Measures of one dispatch run, computed from outside the dispatcher: when each row arrived (the
 * bench's own clock) and when the judge double was busy with it (the calls it recorded).
 */

/** A judge call: its row tag and interval (ms, `performance.now()`); `end` null while unanswered. */
export type Interval = { tag: string; start: number; end: number | null };

export type RunRecord = {
  /** Arrival time of every row, by tag. */
  arrivals: Map<string, number>;
  calls: Interval[];
  /** Tenant of a tag. */
  tenantOf: (tag: string) => string;
  /** When dispatching started and the run ended (ms). */
  t0: number;
  t1: number;
  globalLimit: number;
  /** Per-tenant cap (the organization limit). */
  tenantCap: number;
  latencyMs: number;
};

/** Max-min fair split of `capacity` between demands capped at `cap` (water-filling). */
export const fairShares = (
  capacity: number,
  demands: Map<string, number>,
  cap: number,
): Map<string, number> => {
  const shares = new Map<string, number>();
  let open = [...demands].filter(([, d]) => d > 0).map(([k, d]) => [k, Math.min(d, cap)] as const);
  let left = capacity;
  while (open.length > 0) {
    const level = left / open.length;
    const satisfied = open.filter(([, d]) => d <= level);
    if (satisfied.length === 0) {
      for (const [k] of open) shares.set(k, level);
      break;
    }
    for (const [k, d] of satisfied) {
      shares.set(k, d);
      left -= d;
    }
    open = open.filter(([, d]) => d > level);
  }
  return shares;
};

/**
 * Judge slot-time used over slot-time available (global_limit x run time). Every judge call takes
 * the same fixed latency, so this is the rows scored per second as a fraction of
 * global_limit / latency, without the rounding of counting whole completions.
 */
export const throughputFraction = (run: RunRecord): number => {
  let busy = 0;
  for (const c of run.calls)
    busy += Math.max(0, Math.min(c.end ?? run.t1, run.t1) - Math.max(c.start, run.t0));
  return busy / (run.globalLimit * (run.t1 - run.t0));
};

/**
 * For each tenant: judge slot-time served / slot-time entitled (max-min fair share of the global
 * limit among tenants with work, capped by their demand), over the moments when at least two
 * tenants had work, sampled every `stepMs`. Returns the worst tenant's ratio.
 */
export const worstContentionShare = (run: RunRecord, stepMs = 10): { share: number; tenant: string } => {
  const served = new Map<string, number>();
  const entitled = new Map<string, number>();
  const completions = new Map<string, number>();
  for (const c of run.calls) if (c.end !== null) completions.set(c.tag, c.end);
  for (let t = run.t0; t < run.t1; t += stepMs) {
    const demand = new Map<string, number>();
    for (const [tag, at] of run.arrivals) {
      if (at > t || (completions.get(tag) ?? Number.POSITIVE_INFINITY) <= t) continue;
      const tenant = run.tenantOf(tag);
      demand.set(tenant, (demand.get(tenant) ?? 0) + 1);
    }
    if (demand.size < 2) continue;
    for (const [tenant, share] of fairShares(run.globalLimit, demand, run.tenantCap)) {
      entitled.set(tenant, (entitled.get(tenant) ?? 0) + share);
    }
    for (const c of run.calls) {
      if (c.start <= t && (c.end ?? Number.POSITIVE_INFINITY) > t) {
        const tenant = run.tenantOf(c.tag);
        served.set(tenant, (served.get(tenant) ?? 0) + 1);
      }
    }
  }
  let worst = { share: Number.POSITIVE_INFINITY, tenant: '' };
  for (const [tenant, e] of entitled) {
    const share = (served.get(tenant) ?? 0) / e;
    if (share < worst.share) worst = { share, tenant };
  }
  return worst;
};

/**
 * The 99th percentile wait (arrival to the start of its judge call) of one tenant's rows that
 * arrived during the run; a row never started counts its wait until the end, so the value is then
 * a lower bound (`censored`).
 */
export const p99Wait = (run: RunRecord, tenant: string): { ms: number; censored: boolean } => {
  const starts = new Map<string, number>();
  for (const c of run.calls)
    if (!starts.has(c.tag) || c.start < starts.get(c.tag)!) starts.set(c.tag, c.start);
  const waits: Array<{ ms: number; censored: boolean }> = [];
  for (const [tag, at] of run.arrivals) {
    if (run.tenantOf(tag) !== tenant || at > run.t1) continue;
    const start = starts.get(tag);
    waits.push(
      start === undefined
        ? { ms: run.t1 - at, censored: true }
        : { ms: Math.max(0, start - at), censored: false },
    );
  }
  waits.sort((a, b) => a.ms - b.ms);
  return waits[Math.max(0, Math.ceil(0.99 * waits.length) - 1)] ?? { ms: 0, censored: false };
};
