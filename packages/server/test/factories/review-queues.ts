import type { RequestBody, ReviewQueue } from '@voice-eval/sdk';
import { clientWith, type Harness, type Headers } from '../harness.js';

/** Test factories for review queues, made through the SDK acting with `headers` (a role's, or another workspace's). */

/** Creates a review queue (it samples its calls at once). */
export const makeReviewQueue = (
  h: Harness,
  headers: Headers,
  body: RequestBody<'reviewQueues', 'create'>,
): Promise<ReviewQueue> => clientWith(h.url, headers).reviewQueues.create(body);
