import type { WebhookEvent } from '@voice-eval/contract';
import { Webhook } from 'standardwebhooks';
import { VoiceEvalError } from './core/errors.js';

/** A webhook request failed verification: missing headers, a stale timestamp or a wrong signature. */
export class WebhookVerificationError extends VoiceEvalError {
  override readonly name: string = 'WebhookVerificationError';
}

/** Request headers as Node (`req.headers`), the Fetch API (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/** Options of {@link verifyWebhook}. */
export type VerifyWebhookOptions = {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. @default 300 */
  toleranceSeconds?: number;
  /** The current time (tests). @default () => new Date() */
  now?: () => Date;
};

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
};

/** Compares two strings in time independent of where they differ. */
const sameText = (a: string, b: string) => {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
};

/** The `v1,<signature>` the `standardwebhooks` library computes for this id, time and body. */
const expectedSignature = (secret: string, id: string, seconds: number, body: string) => {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    throw new WebhookVerificationError('The signing secret is not valid base64 (expected whsec_...).');
  }
  return webhook.sign(id, new Date(seconds * 1000), body);
};

/**
 * Verifies a webhook request from voice-eval (the Standard Webhooks scheme: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`, signed as the
 * `standardwebhooks` library signs) and returns its event,
 * typed by `type`. `payload` must be the raw body, exactly as received (not re-serialised JSON);
 * `secret` is the endpoint's `whsec_...` secret. Throws {@link WebhookVerificationError} when a
 * header is missing, the timestamp is further than `toleranceSeconds` from now, or no signature
 * matches. De-duplicate on `webhook-id`: a retried or redelivered event keeps it.
 *
 * @example
 * const event = await verifyWebhook(rawBody, req.headers, process.env.VOICE_EVAL_WEBHOOK_SECRET!);
 * if (event.type === 'evaluation.completed') console.log(event.data.evaluation_id);
 */
export const verifyWebhook = async (
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> => {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  }
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The webhook-timestamp is missing, invalid or too far from now.');
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const expected = expectedSignature(secret, id, seconds, body);
  const matched = signatures.split(' ').some((entry) => sameText(entry, expected));
  if (!matched) throw new WebhookVerificationError('No webhook-signature matches the payload.');
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('The payload is not JSON.');
  }
};
