import { z } from 'zod';
import { NumericRuleSchema } from './metric-clusters.js';
import type { VoiceMeasures } from './suite-run.js';

/**
 * The voice measures a metric can score without a judge, with the metric type each needs: the numeric
 * measures as `number` metrics, whether the agent yielded on barge-in as a `boolean` one.
 */
export const VOICE_MEASURE_METRIC_TYPES = {
  duration_ms: 'number',
  agent_latency_p50_ms: 'number',
  agent_latency_p95_ms: 'number',
  time_to_first_word_ms: 'number',
  agent_interruptions: 'number',
  caller_interruptions: 'number',
  yielded_on_barge_in: 'boolean',
  clear_messages: 'number',
  overlap_ratio: 'number',
  silence_ratio: 'number',
  agent_talk_ratio: 'number',
} as const satisfies Record<keyof VoiceMeasures, 'number' | 'boolean'>;

export type VoiceMeasureName = keyof typeof VOICE_MEASURE_METRIC_TYPES;

export const VoiceMeasureNameSchema = z.enum(
  Object.keys(VOICE_MEASURE_METRIC_TYPES) as [VoiceMeasureName, ...VoiceMeasureName[]],
);

/**
 * `custom_config` of a voice metric: a metric whose `custom_config.voice_measure` names a voice
 * measure is scored from the call's audio, not by the judge. Its value on a voice call is the
 * measure (null on calls without audio measures, which never fail); `threshold` is its failure
 * rule (for example `{ "operator": "gt", "value": 1200 }` on `agent_latency_p95_ms`) unless the
 * workspace configures a failure policy for it. A boolean measure fails when false.
 */
export const VoiceMetricConfigSchema = z
  .object({
    voice_measure: VoiceMeasureNameSchema,
    threshold: NumericRuleSchema.optional(),
  })
  .passthrough();
export type VoiceMetricConfig = z.infer<typeof VoiceMetricConfigSchema>;
