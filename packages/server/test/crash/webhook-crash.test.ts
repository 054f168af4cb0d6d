import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { startWebhookReceiver, type WebhookReceiver } from '../doubles/webhook-receiver.js';
import {
  type ChildServer,
  callChild,
  crashWorld,
  evaluateTranscripts,
  signUpOnChild,
} from './child-server.js';

/**
 * The webhook outbox survives SIGKILL: an evaluation completes (its `evaluation.completed` event
 * and delivery are committed with it), the server is killed while the delivery is in flight (the
 * receiver hangs), and a restarted server delivers it: same `webhook-id`, valid signature, once.
 */

let judge: JudgeDouble;
let receiver: WebhookReceiver;
const PATH = '/hooks/crash';

/** Signs up, subscribes the receiver to evaluation.completed, imports two calls and starts their evaluation. */
const seed = async (server: ChildServer) => {
  const session = await signUpOnChild(server, 'webhook-crash');
  const endpoint = await session.post('/api/v1/webhook-endpoints', {
    url: `${receiver.url}${PATH}`,
    events: ['evaluation.completed'],
  });
  receiver.setSecret(PATH, endpoint.secret);
  const { evaluationId } = await evaluateTranscripts(session, [
    { id: 'a', transcript: 'Agent: hello. Caller: hi.' },
    { id: 'b', transcript: 'Agent: bye.' },
  ]);
  return { token: session.token, endpointId: endpoint.id as string, evaluationId };
};

describe('webhook deliveries survive SIGKILL', () => {
  beforeAll(async () => {
    judge = await startJudgeDouble();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await judge.close();
  });
  const world = crashWorld('webhook-crash');
  const start = () =>
    world.start({
      VOICE_EVAL_LLM_BASE_URL: judge.url,
      VOICE_EVAL_LLM_MODEL: 'judge-model',
      VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
      // an attempt may hang 4 s: its lease (2 x timeout + 1 s) lapses 9 s after the claim
      VOICE_EVAL_WEBHOOK_TIMEOUT_MS: '4000',
      VOICE_EVAL_WEBHOOK_RETRY_BASE_MS: '50',
    });

  it('a server killed while delivering evaluation.completed: the restarted server delivers it, same webhook-id', async () => {
    receiver.holdNext(PATH, 1);
    const first = await start();
    const { token, endpointId, evaluationId } = await seed(first);
    // the evaluation completed and its delivery is in flight: the receiver holds the request
    await expect.poll(() => receiver.on(PATH).length, { timeout: 60_000, interval: 20 }).toBe(1);
    await first.kill();
    const second = await start();
    const evaluation = await callChild(second, 'GET', `/api/v1/evaluations/${evaluationId}`, { token });
    expect(evaluation.status).toBe('completed');

    await expect.poll(() => receiver.on(PATH).length, { timeout: 60_000, interval: 50 }).toBe(2);
    const [cut, delivered] = receiver.on(PATH);
    expect(cut!.answered).toBe(0);
    expect(delivered!.answered).toBe(200);
    expect(delivered!.verifyError).toBeNull();
    expect(delivered!.headers['webhook-id']).toBe(cut!.headers['webhook-id']);
    expect(delivered!.payload).toMatchObject({
      type: 'evaluation.completed',
      data: { evaluation_id: evaluationId },
    });
    const deliveries = () =>
      callChild(second, 'GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`, { token });
    // the receiver answered; the worker writes the outcome just after
    await expect
      .poll(async () => (await deliveries()).items[0]?.status, { timeout: 30_000, interval: 50 })
      .toBe('delivered');
    const log = await deliveries();
    expect(log.total).toBe(1);
    expect(log.items[0]).toMatchObject({ status: 'delivered', webhook_id: delivered!.headers['webhook-id'] });
    // the cut attempt's worker died before writing it: the log shows the attempt that answered
    expect(log.items[0].attempts.at(-1)).toMatchObject({ status_code: 200 });
    expect(receiver.on(PATH)).toHaveLength(2);
  }, 180_000);
});
