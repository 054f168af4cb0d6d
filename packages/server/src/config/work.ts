import { z } from 'zod';
import { int } from './parsers.js';

/** The server's background work: workers, leases, and the fair dispatcher's limits. */
export const workFields = {
  /** Items each background task works on at once in this instance; 0 runs no workers. @default 4 */
  workerConcurrency: z.coerce.number().int().min(0).max(256).default(4),
  /** Lease of a call-import row being diarised, renewed while it is worked on, in ms. @default 60000 */
  diarisationLeaseMs: int(60_000),
  /** Leases a row may lose (its worker died) before it fails with `attempts_exhausted`. @default 3 */
  diarisationMaxAttempts: int(3),
  /**
   * Dispatched items in flight at once across every instance sharing the database; evaluation rows
   * and simulated conversations count together (so for the limits below). @default 64
   */
  globalLimit: int(64),
  /** Dispatched items (evaluation rows, simulated conversations) in flight at once for one organization. @default 32 */
  orgLimit: int(32),
  /** Dispatched items in flight at once for one workspace. @default 16 */
  workspaceLimit: int(16),
  /** Items of one job (an evaluation, a suite run) in flight at once. @default 8 */
  jobLimit: int(8),
  /** Most items one dispatch pass hands out. @default 32 */
  fairDispatchBatchSize: int(32),
  /** Pause of an instance's dispatcher for a source once every slot it could fill is taken, in seconds. @default 2 */
  atCapacityBackoffSeconds: z.coerce.number().int().min(0).max(3600).default(2),
  /** Lease of an evaluation row being scored, renewed while it is worked on, in ms. @default 60000 */
  evaluationLeaseMs: int(60_000),
  /** Leases an evaluation row may lose before it fails with `attempts_exhausted`. @default 3 */
  evaluationMaxAttempts: int(3),
  /** How often each instance looks for suites whose schedule is due, in ms. @default 15000 */
  scheduleTickMs: int(15_000),
  /** Simulated calls one instance holds at once (they mostly wait on the agent and the persona model). @default 32 */
  simulationConcurrency: z.coerce.number().int().min(0).max(1024).default(32),
  /** Lease of a simulated call being held, renewed while the call goes on, in ms. @default 60000 */
  simulationLeaseMs: int(60_000),
  /** Leases a simulated call may lose (its worker died) before it fails with `attempts_exhausted`. @default 3 */
  simulationMaxAttempts: int(3),
  /** How long the agent may take to answer one turn of a simulated call, in ms. @default 30000 */
  simulationTurnTimeoutMs: int(30_000),
};
