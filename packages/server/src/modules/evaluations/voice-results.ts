import {
  type EvaluationResult,
  type VoiceMeasureName,
  type VoiceMeasures,
  VoiceMetricConfigSchema,
} from '@voice-eval/contract';
import { isFailure } from './failure-policies.js';
import type { MetricSnapshot } from './results.js';

/** The voice measure a metric scores (`custom_config.voice_measure`), or null for a judged metric. */
export const voiceMeasureOf = (customConfig: unknown): VoiceMeasureName | null => {
  const parsed = VoiceMetricConfigSchema.safeParse(customConfig);
  return parsed.success ? parsed.data.voice_measure : null;
};

/**
 * A voice metric's result: the call's measure, flagged by the metric's failure policy. A call
 * without voice measures (a text call, an imported recording) or without this measure (no latency
 * when the agent never answered) scores null, which never fails.
 */
export const measuredResult = (
  metric: MetricSnapshot & { voice_measure: VoiceMeasureName },
  measures: VoiceMeasures | null,
): EvaluationResult => {
  const value = measures?.[metric.voice_measure] ?? null;
  return {
    metric_id: metric.id,
    metric_name: metric.name,
    value,
    flagged: isFailure(metric.policy, value),
    rationale:
      metric.capture_rationale && value !== null
        ? `Measured from the call's audio: ${metric.voice_measure} = ${value}.`
        : null,
    evidence: [],
    metric_version: metric.version ?? null,
  };
};
