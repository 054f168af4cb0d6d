/**
 * The internals the benchmarks (`bench/`) measure directly, for the workspace only: this entry,
 * `@voice-eval/server/bench-internals`, resolves through the `@voice-eval/source` condition alone,
 * so it is not in the packed package and not part of its API or types. A bench drives these
 * white-box where the public API cannot isolate what it measures: the worker pool and a task with
 * its claim swapped (dispatch fairness), the voice call engine and its audio worker without a database (frame pacing),
 * the clustering core without a server (cluster quality). Names here may change with the code.
 */
export { adjustedRandIndex, clusterItems, tokenize } from './clustering/index.js';
export { SCORING_CONTEXT_SELECT } from './modules/evaluations/work-repo.js';
export type { CallRecord } from './modules/suite-runs/repo.js';
export { presetAmbience } from './modules/suite-runs/voice/ambience.js';
export { runVoiceCall, type VoiceOutcome, type VoiceParties } from './modules/suite-runs/voice/voice-call.js';
export { createFramePacer, encodeWav, type NoisePreset, resample } from './voice/audio/index.js';
export { audioWorker } from './voice/audio/off-loop.js';
export { WorkerPool } from './workers/pool.js';
export { converseSuiteRunCallTask } from './workers/tasks/converse-suite-run-call.js';
export { type ClaimPolicy, scoreEvaluationRowTask } from './workers/tasks/score-evaluation-row.js';
