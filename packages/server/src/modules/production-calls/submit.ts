import type {
  ProductionCallSubmitBodySchema,
  ProductionCallSubmitResult,
  TranscriptTurn,
} from '@voice-eval/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { requireAgent } from '../agents/service.js';
import { readIntegrationCredentials } from '../integrations/service.js';
import { landCall } from './land.js';
import { elevenLabsTurns } from './platforms/elevenlabs.js';
import type { IncomingCall, RecordingSource } from './platforms/incoming.js';
import { retellTurns } from './platforms/retell.js';
import { vapiTurns } from './platforms/vapi.js';
import { toProductionCall } from './service.js';

type Body = z.output<typeof ProductionCallSubmitBodySchema>;

/** A platform's own transcript JSON, read by the parser its push endpoint uses. */
const NATIVE: Record<
  Exclude<Body['transcript_format'], 'voice-eval'>,
  (json: unknown) => TranscriptTurn[]
> = {
  vapi: vapiTurns,
  retell: retellTurns,
  elevenlabs: elevenLabsTurns,
};

const turnsOf = (body: Body): TranscriptTurn[] | null => {
  if (body.transcript === undefined) return null;
  if (body.transcript_format === 'voice-eval') {
    return (
      body.transcript as Array<{
        role: TranscriptTurn['speaker'];
        text: string;
        start_ms?: number;
        end_ms?: number;
      }>
    ).map(({ role, ...turn }) => ({ speaker: role, ...turn }));
  }
  if (!Array.isArray(body.transcript)) {
    throw new ApiError('validation_failed', 'The transcript is not in the named format.', {
      errors: [
        { path: 'body.transcript', message: `Expected the ${body.transcript_format} transcript array` },
      ],
    });
  }
  return NATIVE[body.transcript_format](body.transcript);
};

/** A Twilio integration's credentials fetch the recording (Basic auth); any other URL is fetched as is. */
const recordingOf = async (deps: Deps, ctx: RequestContext, body: Body): Promise<RecordingSource | null> => {
  if (body.integration_id) {
    const integration = await readIntegrationCredentials(deps, ctx.organizationId, body.integration_id);
    if (!integration || integration.platform !== body.provider) {
      throw new ApiError('rule_violation', 'The integration must be an active one of the same provider.', {
        errors: [
          { path: 'body.integration_id', message: `No active ${body.provider} integration with this id` },
        ],
      });
    }
    if (body.recording && integration.platform === 'twilio')
      return { auth: 'twilio', url: body.recording.url, agent_channel: body.recording.agent_channel };
  }
  return body.recording
    ? { auth: 'none', url: body.recording.url, agent_channel: body.recording.agent_channel }
    : null;
};

/** Times from whichever two of start, end and duration were given. */
const timesOf = (body: Body) => {
  const started = body.started_at ? new Date(body.started_at) : null;
  let ended = body.ended_at ? new Date(body.ended_at) : null;
  let duration = body.duration_ms ?? null;
  if (started && ended && duration === null) duration = ended.getTime() - started.getTime();
  if (started && !ended && duration !== null) ended = new Date(started.getTime() + duration);
  return { started_at: started, ended_at: ended, duration_ms: duration };
};

/**
 * Submits a live agent's call for the workspace's agent: 202 with the new call, or 200 with the
 * existing one when this provider's external id was seen (nothing changes).
 */
export const submitProductionCall = async (
  deps: Deps,
  ctx: RequestContext,
  body: Body,
): Promise<{ status: 200 | 202; body: ProductionCallSubmitResult }> => {
  const agent = await requireAgent(deps.db, ctx, body.agent_id);
  const call: IncomingCall = {
    external_call_id: body.external_call_id,
    event: 'submitted',
    ...timesOf(body),
    end_reason: body.end_reason ?? null,
    turns: turnsOf(body),
    recording: await recordingOf(deps, ctx, body),
    audio: null,
    metadata: body.metadata ?? {},
  };
  const landed = await landCall(deps, {
    organizationId: ctx.organizationId,
    agent: { id: agent.id, name: agent.name, workspace_id: agent.workspace_id },
    provider: body.provider,
    integrationId: body.integration_id ?? null,
    call,
    tags: body.tags,
    merge: false,
    sampling: body.sampling,
  });
  return {
    status: landed.deduplicated ? 200 : 202,
    body: {
      production_call: toProductionCall(landed.call),
      deduplicated: landed.deduplicated,
      sampled: landed.sampled,
    },
  };
};
