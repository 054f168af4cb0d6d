/**
 * The fair dispatch decision as a pure function over a snapshot of the database: which jobs
 * (evaluations, suite runs) get the next free slots. Hierarchical: an organization first, then one
 * of its workspaces, then one of that workspace's jobs. At each level the child with the fewest
 * items in flight wins (max-min fairness of slots), ties going round-robin from a persisted cursor.
 */

/** In-flight caps per level; an item starts only when every level it falls under has room. */
export type DispatchLimits = {
  global: number;
  organization: number;
  workspace: number;
  job: number;
  /** Most items one pass hands out. */
  batch: number;
};

/** An active job with dispatchable items, with the ring keys of it and its tenants. */
export type Candidate = {
  jobId: string;
  organizationId: string;
  workspaceId: string;
  organizationKey: number;
  workspaceKey: number;
  jobKey: number;
  /** Pending items known to the pass (the count may be capped at the batch size). */
  pending: number;
};

/** Items in flight (running with a live lease) per level, derived from rows for this pass. */
export type InFlight = {
  global: number;
  organization: Map<string, number>;
  workspace: Map<string, number>;
  job: Map<string, number>;
};

/**
 * Round-robin positions: each is the ring key of the child served last at that level (0: none).
 * `organization` maps an organization id to its workspace cursor, `workspace` a workspace id to
 * its job cursor.
 */
export type Cursors = {
  global: number;
  organization: Map<string, number>;
  workspace: Map<string, number>;
};

/** What one pass decides. */
export type DispatchPlan = {
  /** Items to start per job id, in the order first chosen. */
  assignments: Map<string, number>;
  /** The cursors after the pass (only entries that moved differ from the input). */
  cursors: Cursors;
  /** True when items wait but no level had room for any of them: the dispatcher backs off. */
  atCapacity: boolean;
};

const countOf = (map: Map<string, number>, key: string) => map.get(key) ?? 0;
const bump = (map: Map<string, number>, key: string) => map.set(key, countOf(map, key) + 1);

/** Round-robin order after `cursor`: keys above it ascending, then the wrapped ones ascending. */
const ringRank = (key: number, cursor: number) => (key > cursor ? key - cursor : key - cursor + 2 ** 52);

type Choice<T> = { item: T; key: number; load: number };

/** The least-loaded choice, ties broken by the ring order after `cursor`. */
const fairest = <T>(choices: Array<Choice<T>>, cursor: number): Choice<T> | undefined => {
  let best: Choice<T> | undefined;
  for (const choice of choices) {
    if (
      !best ||
      choice.load < best.load ||
      (choice.load === best.load && ringRank(choice.key, cursor) < ringRank(best.key, cursor))
    ) {
      best = choice;
    }
  }
  return best;
};

/** Candidates that could take one more item now under every limit. */
const openCandidates = (
  candidates: readonly Candidate[],
  left: Map<string, number>,
  inFlight: InFlight,
  limits: DispatchLimits,
) =>
  candidates.filter(
    (c) =>
      countOf(left, c.jobId) > 0 &&
      countOf(inFlight.job, c.jobId) < limits.job &&
      countOf(inFlight.workspace, c.workspaceId) < limits.workspace &&
      countOf(inFlight.organization, c.organizationId) < limits.organization,
  );

/** Distinct values of `pick` over candidates, each with its ring key. */
const distinct = (
  open: readonly Candidate[],
  id: (c: Candidate) => string,
  key: (c: Candidate) => number,
) => {
  const seen = new Map<string, number>();
  for (const c of open) seen.set(id(c), key(c));
  return [...seen];
};

/** Picks the organization, workspace and job of the next slot, or nothing when none has room. */
const nextSlot = (
  open: readonly Candidate[],
  inFlight: InFlight,
  cursors: Cursors,
): Candidate | undefined => {
  const organizations = distinct(
    open,
    (c) => c.organizationId,
    (c) => c.organizationKey,
  );
  const organization = fairest(
    organizations.map(([item, key]) => ({ item, key, load: countOf(inFlight.organization, item) })),
    cursors.global,
  )?.item;
  const inOrganization = open.filter((c) => c.organizationId === organization);
  const workspaces = distinct(
    inOrganization,
    (c) => c.workspaceId,
    (c) => c.workspaceKey,
  );
  const workspace = fairest(
    workspaces.map(([item, key]) => ({ item, key, load: countOf(inFlight.workspace, item) })),
    countOf(cursors.organization, organization ?? ''),
  )?.item;
  const inWorkspace = inOrganization.filter((c) => c.workspaceId === workspace);
  return fairest(
    inWorkspace.map((item) => ({
      item,
      key: item.jobKey,
      load: countOf(inFlight.job, item.jobId),
    })),
    countOf(cursors.workspace, workspace ?? ''),
  )?.item;
};

/**
 * Hands out up to `want` slots (never more than the batch size or the global room), one at a
 * time so a batch interleaves tenants. A tenant that was idle has no history here: it competes
 * with its current in-flight count and its fixed ring position, so it gets no credit for the
 * time it was away. `inFlight` and `cursors` are not modified.
 */
export const planDispatch = (
  candidates: readonly Candidate[],
  inFlightNow: InFlight,
  cursorsNow: Cursors,
  limits: DispatchLimits,
  want: number,
): DispatchPlan => {
  const inFlight: InFlight = {
    global: inFlightNow.global,
    organization: new Map(inFlightNow.organization),
    workspace: new Map(inFlightNow.workspace),
    job: new Map(inFlightNow.job),
  };
  const cursors: Cursors = {
    global: cursorsNow.global,
    organization: new Map(cursorsNow.organization),
    workspace: new Map(cursorsNow.workspace),
  };
  const left = new Map(candidates.map((c) => [c.jobId, c.pending]));
  const assignments = new Map<string, number>();
  const slots = Math.min(want, limits.batch, limits.global - inFlight.global);
  for (let i = 0; i < slots; i++) {
    const chosen = nextSlot(openCandidates(candidates, left, inFlight, limits), inFlight, cursors);
    if (!chosen) break;
    assignments.set(chosen.jobId, countOf(assignments, chosen.jobId) + 1);
    left.set(chosen.jobId, countOf(left, chosen.jobId) - 1);
    inFlight.global += 1;
    bump(inFlight.organization, chosen.organizationId);
    bump(inFlight.workspace, chosen.workspaceId);
    bump(inFlight.job, chosen.jobId);
    cursors.global = chosen.organizationKey;
    cursors.organization.set(chosen.organizationId, chosen.workspaceKey);
    cursors.workspace.set(chosen.workspaceId, chosen.jobKey);
  }
  const waiting = candidates.some((c) => c.pending > 0);
  return { assignments, cursors, atCapacity: want > 0 && assignments.size === 0 && waiting };
};
