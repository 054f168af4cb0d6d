import {
  INGEST_PLATFORMS,
  type Integration,
  type ProductionCall,
  type ProductionCallSubmitBody,
} from '@voice-eval/contract';
import { createRow, patchRow } from './crud.js';
import { enrolInMonitors } from './domain-monitors.js';
import { type MockEnv, notFound, publicBaseOf, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

type Body = Record<string, unknown>;

const bodyOf = (req: ParsedRequest) => (req.body ?? {}) as Body;
const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Body)[key] : undefined;

/** The call id each platform's delivery names, where the server's parsers read it. */
const externalIdOf = (platform: string, body: Body): unknown =>
  ({
    vapi: field(field(body.message, 'call'), 'id'),
    retell: field(body.call, 'call_id'),
    elevenlabs: field(body.data, 'conversation_id'),
    twilio: body.CallSid,
  })[platform];

const findCall = (env: MockEnv, provider: string, externalId: string) =>
  env.db.productionCalls.all().find((c) => c.provider === provider && c.external_call_id === externalId);

const newCall = (env: MockEnv, values: Partial<ProductionCall>, workspaceId: string) =>
  env.db.productionCalls.create(
    env.fixtures.productionCall({
      ...values,
      call_import_id: env.seq.uuid(),
      call_import_row_id: env.seq.uuid(),
    }),
    { workspaceId },
  );

/**
 * Production calls: submits are idempotent per provider and external id (200 with the existing
 * call and the `sampled` it got, else 202 with `sampled` as `sampledByMonitors` decides); a
 * platform's delivery lands on its integration's agent. The mock does not check signatures: an
 * active integration of the path's platform takes any delivery naming a call.
 */
export const productionImpls: Record<string, RouteImpl> = {
  'integrations.create': (req, env) => {
    const created = createRow(env, 'integrations', req) as unknown as Integration;
    const pushes = (INGEST_PLATFORMS as readonly string[]).includes(created.platform);
    const stored = env.db.integrations.update(created.id, {
      ingest_url: pushes ? `${publicBaseOf(req)}/api/v1/ingest/${created.platform}/${created.id}` : null,
      has_api_key: typeof bodyOf(req).api_key === 'string',
    })!;
    const token =
      created.platform === 'vapi' ? { ingest_token: `vit_${env.seq.uuid().replaceAll('-', '')}` } : {};
    return { status: 201, body: { ...stored, ...token } };
  },
  'integrations.update': (req, env) => {
    const { api_key, secret_key: _secret, ...settings } = bodyOf(req);
    return patchRow(env, 'integrations', req, {
      ...settings,
      ...(api_key !== undefined ? { has_api_key: api_key !== null } : {}),
    });
  },
  'productionCalls.submit': (req, env) => {
    const body = bodyOf(req);
    const agent = env.db.agents.get(String(body.agent_id), req.workspaceId);
    if (!agent) return notFound('Agent');
    const provider = String(body.provider ?? 'custom');
    const existing = findCall(env, provider, String(body.external_call_id));
    if (existing) {
      const sampled = env.monitorCalls.some((c) => c.production_call_id === existing.id && c.sampled);
      return { status: 200, body: { production_call: existing, deduplicated: true, sampled } };
    }
    const call = newCall(
      env,
      {
        workspace_id: agent.workspace_id,
        agent_id: agent.id,
        provider,
        integration_id: (body.integration_id as string | undefined) ?? null,
        external_call_id: String(body.external_call_id),
        started_at: (body.started_at as string | undefined) ?? null,
        ended_at: (body.ended_at as string | undefined) ?? null,
        duration_ms: (body.duration_ms as number | undefined) ?? null,
        end_reason: (body.end_reason as string | undefined) ?? null,
        turn_count: Array.isArray(body.transcript) ? body.transcript.length : 0,
        metadata: (body.metadata as ProductionCall['metadata'] | undefined) ?? {},
        tags: (body.tags as string[] | undefined) ?? [],
        recording_status: body.recording ? 'pending' : 'none',
      },
      agent.workspace_id,
    );
    const sampled = enrolInMonitors(env, call, body.sampling as ProductionCallSubmitBody['sampling']);
    return { status: 202, body: { production_call: call, deduplicated: false, sampled } };
  },
  'productionCalls.ingest': (req, env) => {
    const integration = env.db.integrations.get(String(req.params.integration_id));
    const platform = String(req.params.platform);
    if (!integration?.is_active || integration.platform !== platform) return notFound('Integration');
    const externalId = externalIdOf(platform, bodyOf(req));
    if (typeof externalId !== 'string' || externalId === '') {
      return {
        status: 200,
        body: {
          received: true,
          production_call_id: null,
          deduplicated: false,
          ignored: 'The delivery names no call.',
        },
      };
    }
    if (!integration.agent_id) {
      return {
        status: 422,
        body: {
          code: 'rule_violation',
          detail: 'The integration names no agent to file its calls under; set its agent_id.',
        },
      };
    }
    const existing = findCall(env, platform, externalId);
    const agent = env.db.agents.get(integration.agent_id);
    const call =
      existing ??
      newCall(
        env,
        {
          workspace_id: agent?.workspace_id,
          agent_id: integration.agent_id,
          provider: platform,
          integration_id: integration.id,
          external_call_id: externalId,
          events: ['delivered'],
        },
        agent?.workspace_id ?? req.workspaceId,
      );
    env.db.integrations.update(integration.id, { last_received_at: env.seq.timestamp() });
    return {
      status: 200,
      body: {
        received: true,
        production_call_id: call.id,
        deduplicated: existing !== undefined,
        ignored: null,
      },
    };
  },
};
