import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@voice-eval/sdk';
import express, { type Router } from 'express';

/** Options of {@link webhookReceiver}. */
export interface WebhookReceiverOptions {
  /** The endpoint's signing secret (`whsec_...`), shown when the endpoint was created or rotated. */
  secret: () => string | undefined;
  /** Handles one event; called once per `webhook-id` (retries and redeliveries are skipped). */
  onEvent: (event: WebhookEvent, webhookId: string) => void | Promise<void>;
}

/** How many `webhook-id`s the receiver remembers to skip duplicates (a real app would use its database). */
const REMEMBERED = 10_000;

/**
 * `POST /` receiving voice-eval's webhooks: verifies the raw body with the SDK's `verifyWebhook`
 * (400 when the signature, timestamp or headers are wrong), skips a `webhook-id` it has handled,
 * and answers 204 quickly; a non-2xx answer makes voice-eval retry with back-off.
 */
export const webhookReceiver = ({ secret, onEvent }: WebhookReceiverOptions): Router => {
  const seen = new Set<string>();
  const router = express.Router();
  // the signature covers the exact bytes: keep the raw body, do not parse and re-serialise it
  router.post('/', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res, next) => {
    const key = secret();
    if (!key) return void res.status(503).json({ error: 'not_configured' });
    try {
      const event = await verifyWebhook(req.body as Buffer, req.headers, key);
      const id = req.get('webhook-id')!;
      if (!seen.has(id)) {
        await onEvent(event, id);
        seen.add(id);
        if (seen.size > REMEMBERED) seen.delete(seen.values().next().value!);
      }
      res.status(204).end();
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        return void res.status(400).json({ error: error.message });
      next(error);
    }
  });
  return router;
};
