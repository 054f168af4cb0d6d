import type { Deps } from '../deps.js';
import type { UsageHook } from '../providers/index.js';

/** What a model call was made for: the paying organization, the purpose and the job, if any. */
export type UsageScope = {
  organizationId: string;
  /** `metric.generate`, `call_import_row.diarise`, `evaluation_row.score`, `metric_clusters.generate`, ... */
  purpose: string;
  jobId?: string | null;
};

/**
 * A usage hook that records every model call (tokens, audio seconds, attempts, duration) in
 * `provider_usage`. A failed write is logged, never thrown: accounting must not fail the work.
 */
export const recordUsage =
  (deps: Pick<Deps, 'db' | 'logger'>, scope: UsageScope): UsageHook =>
  async (event) => {
    try {
      await deps.db('provider_usage').insert({
        organization_id: scope.organizationId,
        purpose: scope.purpose,
        job_id: scope.jobId ?? null,
        kind: event.kind,
        provider: event.provider,
        model: event.model,
        prompt_id: event.prompt?.id ?? null,
        prompt_version: event.prompt?.version ?? null,
        prompt_tokens: event.usage.prompt_tokens,
        completion_tokens: event.usage.completion_tokens,
        total_tokens: event.usage.total_tokens,
        audio_seconds: event.usage.audio_seconds ?? null,
        attempts: event.attempts,
        duration_ms: Math.round(event.duration_ms),
      });
    } catch (err) {
      deps.logger.warn({ err, purpose: scope.purpose }, 'provider_usage:record_failed');
    }
  };
