import type { IngestPlatform, IngestReceipt } from '@voice-eval/contract';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { ingestIntegration, markReceived } from '../integrations/service.js';
import { landCall } from './land.js';
import { type Delivery, PLATFORMS } from './platforms/index.js';

/**
 * A platform's delivery to `/ingest/{platform}/{integration_id}`: the integration must exist, be
 * active and be of that platform (404 otherwise, the same answer for each), and the delivery must
 * verify with its secret (401, nothing stored). A verified delivery of a finished call lands on the
 * integration's agent at once; its recording downloads in the background (when the integration's
 * credentials can fetch it).
 */
export const receiveDelivery = async (
  deps: Deps,
  platform: IngestPlatform,
  integrationId: string,
  delivery: Delivery,
): Promise<IngestReceipt> => {
  const integration = await ingestIntegration(deps, integrationId);
  if (!integration || integration.platform !== platform) throw notFound('Integration');
  const now = deps.now();
  const verdict = PLATFORMS[platform].verify(delivery, integration.secrets, now);
  if (!verdict.ok) throw new ApiError('unauthenticated', `The delivery was refused: ${verdict.reason}`);
  await markReceived(deps, integration, now);
  const { parse, fetchable } = PLATFORMS[platform];
  const parsed = parse(delivery.body);
  if ('ignored' in parsed)
    return { received: true, production_call_id: null, deduplicated: false, ignored: parsed.ignored };
  const { agent } = integration;
  if (!agent) {
    throw new ApiError(
      'rule_violation',
      'The integration names no agent to file its calls under; set its agent_id.',
      {
        errors: [{ path: 'integration.agent_id', message: 'Required to receive calls' }],
      },
    );
  }
  const landed = await landCall(deps, {
    organizationId: integration.organization_id,
    agent,
    provider: platform,
    integrationId: integration.id,
    call: fetchable ? fetchable(parsed, integration.secrets) : parsed,
    merge: true,
  });
  return {
    received: true,
    production_call_id: landed.call.id,
    deduplicated: landed.deduplicated,
    ignored: null,
  };
};
