import {
  type EvaluationResult,
  type EvaluationRowErrorSchema,
  parseSourceTranscript,
} from '@voice-eval/contract';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import {
  judgeScoreV2,
  type ProviderError,
  type ProviderErrorCode,
  type ProviderSelection,
  renderPrompt,
} from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import type { JudgedTurn } from './evidence.js';
import type { ProviderRecordsSource } from './provider-records.js';
import {
  judgeMetricOf,
  type MetricSnapshot,
  readDiscoveries,
  readScores,
  type StoredDiscovery,
} from './results.js';
import { measuredResult } from './voice-results.js';
import type { ScoringContext } from './work-repo.js';

/** A typed row error (`EvaluationRow.error`). */
export type EvaluationRowError = z.infer<typeof EvaluationRowErrorSchema>;

/** The outcome of scoring one row: its results, or the typed error to record on it. */
export type ScoreOutcome =
  | { ok: true; results: EvaluationResult[]; flagged: boolean; discovered: StoredDiscovery[] }
  | { ok: false; error: EvaluationRowError };

/** Provider failures as row error codes (rate limits and budgets surface as `provider_error`). */
const ROW_CODES: Record<ProviderErrorCode, EvaluationRowError['code']> = {
  provider_error: 'provider_error',
  rate_limited: 'provider_error',
  timeout: 'timeout',
  cancelled: 'cancelled',
  invalid_provider_response: 'invalid_provider_response',
  provider_audio_unsupported: 'provider_error',
  ai_provider_not_configured: 'provider_error',
  budget_exhausted: 'provider_error',
};

const failure = (
  deps: Deps,
  code: EvaluationRowError['code'],
  message: string,
  who: { provider?: string | null; model?: string | null } = {},
): ScoreOutcome => ({
  ok: false,
  error: {
    code,
    message,
    provider: who.provider ?? null,
    model: who.model ?? null,
    at: deps.now().toISOString(),
  },
});

const providerFailure = (deps: Deps, error: Pick<ProviderError, 'code' | 'message' | 'provider' | 'model'>) =>
  failure(deps, ROW_CODES[error.code], error.message, error);

/**
 * What the judge reads, each turn with its index in the call's transcript: the diarised turns
 * when transcription completed (empty ones left out), else the source transcript's turns when its
 * lines name their speakers, else the source transcript as one turn; null when the row has
 * neither (or only empty ones).
 */
export const turnsOf = (context: ScoringContext): JudgedTurn[] | null => {
  const turns = context.diarised_transcript_status === 'completed' ? (context.diarised_transcript ?? []) : [];
  const spoken = turns
    .map(({ speaker, text }, index) => ({ speaker, text, index }))
    .filter((turn) => turn.text.trim() !== '');
  if (spoken.length > 0) return spoken;
  const source = context.source_transcript?.trim();
  if (!source) return null;
  const labelled = parseSourceTranscript(source);
  return labelled
    ? labelled.map((turn, index) => ({ ...turn, index }))
    : [{ speaker: 'transcript', text: source, index: 0 }];
};

/**
 * The evaluation's judge: the AI provider it was started with (which must still be active), else
 * the organization's default provider or the server default.
 */
const pickJudge = async (
  deps: Deps,
  context: ScoringContext,
  recordsOf: ProviderRecordsSource,
): Promise<ProviderSelection | 'gone'> => {
  const records = await recordsOf(context.organization_id);
  if (!context.ai_provider_id) return deps.providers.forOrganization(records, { purpose: 'chat' });
  const record = records.find((r) => r.id === context.ai_provider_id);
  return record ? deps.providers.forRecord(record) : 'gone';
};

/** The placeholder of a judged metric on a call a monitor's sample skipped: no value, no failure. */
const notSampled = (metric: MetricSnapshot): EvaluationResult => ({
  metric_id: metric.id,
  metric_name: metric.name,
  value: null,
  flagged: false,
  rationale: 'Not sampled: the monitor judges a share of calls, and this one was not in it.',
  evidence: [],
  metric_version: metric.version ?? null,
});

/**
 * Scores one row: one result per metric of the evaluation, in its order. Voice metrics take the
 * call's measures; the others are judged by the LLM over the transcript (no call when every metric
 * is a voice metric). Never throws for expected failures: a missing transcript, a provider error or an unusable
 * reply come back as the row's typed error.
 */
export const scoreRow = async (
  deps: Deps,
  context: ScoringContext,
  signal: AbortSignal,
  recordsOf: ProviderRecordsSource,
): Promise<ScoreOutcome> => {
  const measured = new Map(
    context.metrics.flatMap((metric) =>
      metric.voice_measure
        ? [
            [
              metric.id,
              measuredResult({ ...metric, voice_measure: metric.voice_measure }, context.voice_measures),
            ],
          ]
        : [],
    ),
  );
  const judged = context.metrics.filter((metric) => !measured.has(metric.id));
  if (!context.sampled) {
    for (const metric of judged) measured.set(metric.id, notSampled(metric));
  }
  const scored =
    !context.sampled || (judged.length === 0 && measured.size > 0)
      ? { ok: true as const, results: [], discovered: [] }
      : await judgeRow(deps, context, judged, signal, recordsOf);
  if (!scored.ok) return scored;
  const byMetric = new Map([...measured, ...scored.results.map((r) => [r.metric_id, r] as const)]);
  const results = context.metrics.map((metric) => byMetric.get(metric.id)!);
  return { ok: true, results, flagged: results.some((r) => r.flagged), discovered: scored.discovered };
};

/**
 * The LLM judge's results for `metrics` over the row's transcript. When any metric of the
 * evaluation allows discovery, the judge is also asked for problems no metric covers, kept as the
 * row's discoveries.
 */
const judgeRow = async (
  deps: Deps,
  context: ScoringContext,
  metrics: readonly MetricSnapshot[],
  signal: AbortSignal,
  recordsOf: ProviderRecordsSource,
): Promise<ScoreOutcome> => {
  const turns = turnsOf(context);
  if (!turns) return failure(deps, 'transcript_unavailable', 'The call has no transcript to score yet.');
  const picked = await pickJudge(deps, context, recordsOf);
  if (picked === 'gone') {
    return failure(
      deps,
      'provider_error',
      'The AI provider this evaluation was started with is no longer active.',
    );
  }
  if (!picked.ok) return providerFailure(deps, picked.error);
  const allowDiscovery = context.metrics.some((metric) => metric.allow_discovery === true);
  const reply = await picked.provider.chat(
    {
      ...renderPrompt(judgeScoreV2, {
        turns,
        metrics: metrics.map(judgeMetricOf),
        allowDiscovery,
      }),
      model: context.model ?? undefined,
      temperature: 0,
    },
    {
      signal,
      onUsage: recordUsage(deps, {
        organizationId: context.organization_id,
        purpose: 'evaluation_row.score',
        jobId: context.evaluation_id,
      }),
    },
  );
  if (!reply.ok) return providerFailure(deps, reply.error);
  const read = readScores(metrics, reply.value.data.scores, turns);
  if (!read.ok) {
    return failure(deps, 'invalid_provider_response', read.message, {
      provider: reply.provider,
      model: reply.model,
    });
  }
  return {
    ...read,
    discovered: allowDiscovery ? readDiscoveries(context.metrics, reply.value.data.discovered) : [],
  };
};
