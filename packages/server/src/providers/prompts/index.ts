/** The versioned prompts of the service; each file is one prompt version. */

export type { ClusterAnalysis, ClusterRcaVars, FlaggedItem } from './cluster-rca.v1.js';
export { ClusterAnalysisSchema, clusterRcaV1, FailureClusterSchema, GAP_LABELS } from './cluster-rca.v1.js';
export type { DiarisedTranscript, DiariseVars } from './diarise.v1.js';
export { DiarisedTranscriptSchema, DiarisedTurnSchema, diariseV1 } from './diarise.v1.js';
export type { CitedQuote, JudgeMetric, JudgeScores, JudgeScoreVars } from './judge-score.v2.js';
export {
  DiscoveredMetricSchema,
  JudgeScoresSchema,
  judgeScoreV2,
  MetricScoreSchema,
} from './judge-score.v2.js';
export type { MetricGenerateVars, MetricSuggestion } from './metric-generate.v1.js';
export { MetricSuggestionSchema, metricGenerateV1, PROMPT_METRIC_TYPES } from './metric-generate.v1.js';
export type { PersonaCallerVars, PersonaTurn } from './persona-caller.v1.js';
export { PersonaTurnSchema, personaCallerV1 } from './persona-caller.v1.js';
export type { PromptTemplate, PromptTurn, RenderedPrompt } from './prompt-template.js';
export { delimit, formatTurns, renderPrompt } from './prompt-template.js';
export type { EnrichedRubric, RubricEnrichVars } from './rubric-enrich.v1.js';
export { EnrichedRubricSchema, rubricEnrichV1 } from './rubric-enrich.v1.js';
export type { AudioTranscript, TranscribeDiariseVars } from './transcribe-diarise.v1.js';
export { AudioTranscriptSchema, transcribeDiariseV1 } from './transcribe-diarise.v1.js';
