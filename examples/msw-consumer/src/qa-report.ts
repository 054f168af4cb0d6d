import {
  type FieldError,
  type Metric,
  NotFoundError,
  type Tag,
  UnprocessableEntityError,
  type VoiceEval,
} from '@voice-eval/sdk';

/**
 * A consumer's own code on top of the SDK: the kind of module whose tests run on
 * `@voice-eval/sdk/msw` instead of a live server.
 */

/** Names of every agent of the workspace, across all pages. */
export async function listAgentNames(client: VoiceEval, pageSize = 50): Promise<string[]> {
  const names: string[] = [];
  for await (const agent of client.agents.list({ page_size: pageSize })) names.push(agent.name);
  return names;
}

/** The metric with `id`, or null when it does not exist (any other error propagates). */
export async function findMetric(client: VoiceEval, id: string): Promise<Metric | null> {
  try {
    return await client.metrics.get(id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** Creating a tag: the tag, or the field problems the API reported. */
export type TagResult =
  | { ok: true; tag: Tag }
  | { ok: false; problems: FieldError[]; requestId: string | null };

/** Creates a tag, turning a 422 into field problems a form can show. */
export async function createTag(client: VoiceEval, name: string): Promise<TagResult> {
  try {
    return { ok: true, tag: await client.tags.create({ name }) };
  } catch (error) {
    if (error instanceof UnprocessableEntityError) {
      return { ok: false, problems: error.errors, requestId: error.requestId ?? null };
    }
    throw error;
  }
}

/** One flagged call of an evaluation, with the metrics it failed. */
export interface FlaggedCall {
  conversationId: string;
  failedMetrics: string[];
}

/** The calls of a completed evaluation with at least one flagged result. */
export async function flaggedCalls(client: VoiceEval, evaluationId: string): Promise<FlaggedCall[]> {
  const evaluation = await client.evaluations.get(evaluationId);
  if (evaluation.status !== 'completed') {
    throw new Error(`Evaluation ${evaluationId} is ${evaluation.status}, not completed.`);
  }
  const flagged: FlaggedCall[] = [];
  for await (const row of client.evaluations.listRows(evaluationId, { page_size: 100 })) {
    const failedMetrics = row.results.filter((r) => r.flagged).map((r) => r.metric_name);
    if (failedMetrics.length > 0) flagged.push({ conversationId: row.conversation_id, failedMetrics });
  }
  return flagged;
}
