import { describe, expect, it } from 'vitest';
import { type Candidate, type Cursors, type DispatchLimits, type InFlight, planDispatch } from './plan.js';

const LIMITS: DispatchLimits = { global: 8, organization: 8, workspace: 8, job: 8, batch: 32 };

let key = 0;
/** A candidate job; org and workspace keys follow their ids so rings are stable. */
const candidate = (org: string, ws: string, pending = 1000, jobId = `${org}/${ws}/${++key}`): Candidate => ({
  jobId,
  organizationId: org,
  workspaceId: ws,
  organizationKey: org.charCodeAt(0),
  workspaceKey: ws.split('').reduce((sum, c) => sum * 31 + c.charCodeAt(0), 0) % 100_000,
  jobKey: ++key,
  pending,
});

const noneInFlight = (): InFlight => ({
  global: 0,
  organization: new Map(),
  workspace: new Map(),
  job: new Map(),
});
const noCursors = (): Cursors => ({ global: 0, organization: new Map(), workspace: new Map() });

const totals = (candidates: Candidate[], assignments: Map<string, number>, by: (c: Candidate) => string) => {
  const out = new Map<string, number>();
  for (const c of candidates) out.set(by(c), (out.get(by(c)) ?? 0) + (assignments.get(c.jobId) ?? 0));
  return out;
};

/**
 * A discrete-time run: every row takes `latency` ticks; each tick the finished rows free their
 * slots and one plan fills them. Returns the in-flight rows of each organization at every tick.
 */
const simulate = (
  limits: DispatchLimits,
  ticks: number,
  latency: number,
  arrivals: (tick: number) => Candidate[],
) => {
  const candidates: Candidate[] = [];
  let cursors = noCursors();
  const running: Array<{ c: Candidate; until: number }> = [];
  const samples: Array<Map<string, number>> = [];
  for (let tick = 0; tick < ticks; tick++) {
    candidates.push(...arrivals(tick));
    for (let i = running.length - 1; i >= 0; i--) if (running[i]!.until <= tick) running.splice(i, 1);
    const inFlight = noneInFlight();
    for (const { c } of running) {
      inFlight.global += 1;
      inFlight.organization.set(c.organizationId, (inFlight.organization.get(c.organizationId) ?? 0) + 1);
      inFlight.workspace.set(c.workspaceId, (inFlight.workspace.get(c.workspaceId) ?? 0) + 1);
      inFlight.job.set(c.jobId, (inFlight.job.get(c.jobId) ?? 0) + 1);
    }
    const plan = planDispatch(candidates, inFlight, cursors, limits, limits.global - inFlight.global);
    cursors = plan.cursors;
    for (const [id, n] of plan.assignments) {
      const c = candidates.find((x) => x.jobId === id)!;
      c.pending -= n;
      for (let i = 0; i < n; i++) running.push({ c, until: tick + latency });
    }
    samples.push(
      totals(
        candidates,
        new Map(
          running.reduce((m, r) => m.set(r.c.jobId, (m.get(r.c.jobId) ?? 0) + 1), new Map<string, number>()),
        ),
        (c) => c.organizationId,
      ),
    );
  }
  return samples;
};

describe('planDispatch: limits', () => {
  it('never hands out more than the global room, the batch size or what is asked', () => {
    const candidates = ['a', 'b', 'c'].map((o) => candidate(o, `${o}1`));
    const inFlight = { ...noneInFlight(), global: 5 };
    expect(sum(planDispatch(candidates, inFlight, noCursors(), LIMITS, 100).assignments)).toBe(3);
    expect(
      sum(planDispatch(candidates, noneInFlight(), noCursors(), { ...LIMITS, batch: 2 }, 100).assignments),
    ).toBe(2);
    expect(sum(planDispatch(candidates, noneInFlight(), noCursors(), LIMITS, 1).assignments)).toBe(1);
  });

  it('respects organization, workspace and job limits, counting what is already in flight', () => {
    const limits = { global: 100, organization: 5, workspace: 3, job: 2, batch: 100 };
    const candidates = [
      candidate('a', 'a1'),
      candidate('a', 'a1'),
      candidate('a', 'a2'),
      candidate('a', 'a2'),
      candidate('b', 'b1'),
    ];
    const inFlight = noneInFlight();
    inFlight.global = 1;
    inFlight.job.set(candidates[0]!.jobId, 1);
    inFlight.workspace.set('a1', 1);
    inFlight.organization.set('a', 1);
    const plan = planDispatch(candidates, inFlight, noCursors(), limits, 100);
    const byOrg = totals(candidates, plan.assignments, (c) => c.organizationId);
    const byWs = totals(candidates, plan.assignments, (c) => c.workspaceId);
    expect(byOrg.get('a')).toBe(4); // 5 minus the one in flight
    expect(byWs.get('a1')).toBe(2); // 3 minus the one in flight
    expect(byWs.get('a2')).toBe(2);
    expect(byWs.get('b1')).toBe(2); // its only job is capped at 2
    expect(plan.assignments.get(candidates[0]!.jobId)).toBe(1);
    for (const c of candidates) expect(plan.assignments.get(c.jobId) ?? 0).toBeLessThanOrEqual(2);
  });

  it('reports at capacity only when rows wait and no level has room', () => {
    const candidates = [candidate('a', 'a1')];
    const full = { ...noneInFlight(), global: 8 };
    expect(planDispatch(candidates, full, noCursors(), LIMITS, 4).atCapacity).toBe(true);
    const jobFull = noneInFlight();
    jobFull.job.set(candidates[0]!.jobId, 2);
    expect(planDispatch(candidates, jobFull, noCursors(), { ...LIMITS, job: 2 }, 4).atCapacity).toBe(true);
    expect(planDispatch([], noneInFlight(), noCursors(), LIMITS, 4).atCapacity).toBe(false);
    expect(planDispatch(candidates, noneInFlight(), noCursors(), LIMITS, 4).atCapacity).toBe(false);
  });
});

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('planDispatch: fairness', () => {
  it('splits slots between organizations first, however many workspaces one spreads its work over (sybil)', () => {
    const sybil = Array.from({ length: 30 }, (_, i) => candidate('s', `s${i}`));
    const honest = [candidate('h', 'h1')];
    const plan = planDispatch(
      [...sybil, ...honest],
      noneInFlight(),
      noCursors(),
      { ...LIMITS, global: 16 },
      16,
    );
    const byOrg = totals([...sybil, ...honest], plan.assignments, (c) => c.organizationId);
    expect(byOrg.get('s')).toBe(8);
    expect(byOrg.get('h')).toBe(8);
  });

  it('gives the next slot to the least-loaded tenant, and rotates between equals from the cursor', () => {
    const candidates = ['a', 'b', 'c'].map((o) => candidate(o, `${o}1`));
    const inFlight = noneInFlight();
    inFlight.organization.set('a', 2).set('b', 1).set('c', 1);
    inFlight.global = 4;
    const first = planDispatch(
      candidates,
      inFlight,
      { ...noCursors(), global: 'b'.charCodeAt(0) },
      LIMITS,
      1,
    );
    expect([...first.assignments.keys()]).toEqual([candidates[2]!.jobId]); // c: least loaded, after b
    const served: string[] = [];
    let cursors = noCursors();
    for (let i = 0; i < 6; i++) {
      const plan = planDispatch(candidates, noneInFlight(), cursors, LIMITS, 1);
      cursors = plan.cursors;
      served.push(candidates.find((c) => plan.assignments.has(c.jobId))!.organizationId);
    }
    expect(served).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('keeps every busy tenant at its fair share over time (balanced, skewed)', () => {
    const samples = simulate({ ...LIMITS, global: 12 }, 300, 7, (tick) =>
      tick === 0 ? [candidate('a', 'a1', 5000), candidate('b', 'b1', 50), candidate('c', 'c1', 5000)] : [],
    );
    const contended = samples.slice(10, 40);
    for (const sample of contended) {
      for (const org of ['a', 'b', 'c']) expect(sample.get(org)).toBe(4);
    }
  });

  it('gives a tenant returning from idle its share at once but no credit for the time away', () => {
    const samples = simulate(
      { global: 10, organization: 10, workspace: 10, job: 10, batch: 32 },
      200,
      5,
      (tick) => {
        if (tick === 0) return [candidate('a', 'a1', 10_000), candidate('b', 'b1', 20)];
        return tick === 100 ? [candidate('b', 'b1', 10_000)] : [];
      },
    );
    // b drained its first batch long before tick 100, so a held every slot
    expect(samples[90]!.get('a')).toBe(10);
    // on its return b climbs to half (it may take only slots that free up), never beyond
    for (const sample of samples.slice(100, 200)) expect(sample.get('b') ?? 0).toBeLessThanOrEqual(5);
    for (const sample of samples.slice(106, 200)) {
      expect(sample.get('a')).toBe(5);
      expect(sample.get('b')).toBe(5);
    }
  });
});
