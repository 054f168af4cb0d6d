import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDouble, startAgentDouble } from './agent.js';
import { CLINIC_GOODBYE, CLINIC_GREETING, CLINIC_PRICES, wrongPriceOf } from './clinic-agent.js';

let agent: AgentDouble;
beforeAll(async () => {
  agent = await startAgentDouble({ apiKey: 'sk-agent' });
});
afterAll(() => agent.close());

type Turn = { role: 'agent' | 'caller'; text: string };

const chat = async (double: AgentDouble, user: string, turns: Turn[], seed = 7, key = 'sk-agent') => {
  const messages = turns.length
    ? turns.map((t) => ({ role: t.role === 'agent' ? 'assistant' : 'user', content: t.text }))
    : [{ role: 'user', content: '(call connected)' }];
  const res = await fetch(`${double.chatBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      model: 'clinic',
      messages: [{ role: 'system', content: 'Be nice' }, ...messages],
      seed,
      user,
    }),
  });
  return { status: res.status, body: (await res.json()) as any };
};

const webhook = async (double: AgentDouble, id: string, turns: Turn[], secret = double.webhookSecret) => {
  const body = JSON.stringify({
    conversation_id: id,
    run_id: 'run-1',
    turn: turns.length,
    messages: turns,
    scenario: { id: 's', name: 'Booking' },
    metadata: {},
  });
  const msgId = `msg_${randomUUID()}`;
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(msgId, now, body),
  };
  const res = await fetch(double.webhookUrl, { method: 'POST', headers, body });
  return { status: res.status, body: (await res.json()) as any };
};

/** Plays a caller through the webhook, one caller line per agent turn; returns the agent's lines. */
const playWebhook = async (double: AgentDouble, id: string, callerLines: string[]) => {
  const turns: Turn[] = [];
  for (const line of [null, ...callerLines]) {
    if (line !== null) turns.push({ role: 'caller', text: line });
    const { body } = await webhook(double, id, turns);
    turns.push({ role: 'agent', text: body.reply });
    if (body.end_call) break;
  }
  return turns.filter((t) => t.role === 'agent').map((t) => t.text);
};

const BOOKING = ["I'd like to book a dental cleaning.", 'My name is Jane Doe.', 'March 14, please.'];

describe('agent double: openai_chat', () => {
  it('greets, books with a read-back, quotes prices and hangs up with an end_call tool call', async () => {
    const id = randomUUID();
    const turns: Turn[] = [];
    const lines = [
      ...BOOKING,
      "Yes, that's correct.",
      'How much does a dental cleaning cost?',
      'No, goodbye!',
    ];
    let reply = await chat(agent, id, turns);
    expect(reply.body.choices[0].message.content).toBe(CLINIC_GREETING);
    for (const line of lines) {
      turns.push(
        { role: 'agent', text: reply.body.choices[0].message.content },
        { role: 'caller', text: line },
      );
      reply = await chat(agent, id, turns);
    }
    const texts = agent.conversations.get(id)!.replies.map((r) => r.text);
    expect(texts[3]).toBe("So that's March 14, correct?");
    expect(texts[4]).toMatch(/booked for March 14/);
    expect(texts[5]).toMatch(`A dental cleaning costs $${CLINIC_PRICES['dental cleaning']}.`);
    expect(reply.body.choices[0].message).toMatchObject({
      content: CLINIC_GOODBYE,
      tool_calls: [{ type: 'function', function: { name: 'end_call' } }],
    });
    expect(agent.conversations.get(id)).toMatchObject({ kind: 'openai_chat', seed: 7, skipReadback: false });
    expect(agent.conversations.get(id)?.replies.at(-1)?.state).toMatchObject({
      name: 'Jane Doe',
      date: 'March 14',
      booked: true,
      readBack: true,
    });
  });

  it('answers 401 without the API key', async () => {
    expect((await chat(agent, randomUUID(), [], 1, 'sk-wrong')).status).toBe(401);
  });
});

describe('agent double: webhook', () => {
  it('verifies the Standard Webhooks signature and answers { reply, end_call }', async () => {
    const id = randomUUID();
    expect(await webhook(agent, id, [])).toEqual({
      status: 200,
      body: { reply: CLINIC_GREETING, end_call: false },
    });
    const other = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect((await webhook(agent, id, [], other)).status).toBe(401);
    const unsigned = await fetch(agent.webhookUrl, {
      method: 'POST',
      body: '{"conversation_id":"x","messages":[]}',
    });
    expect(unsigned.status).toBe(401);
    expect(agent.conversations.get(id)!.replies).toHaveLength(1);
  });

  it('hangs up with end_call after the caller says goodbye', async () => {
    const lines = await playWebhook(agent, randomUUID(), [...BOOKING, 'Yes.', "That's all, bye!"]);
    expect(lines.at(-1)).toBe(CLINIC_GOODBYE);
    expect(lines).toHaveLength(6);
  });
});

describe('agent double: seeded failure modes', () => {
  it('skips the read-back in a fixed share of calls, the same way on every turn and every rerun', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `conv-${i}`);
    const first = await startAgentDouble({ skipReadbackRate: 0.3 });
    for (const id of ids) await playWebhook(first, id, BOOKING);
    // a rerun that only asks the last turn (the whole conversation in one request) decides the same
    const rerun = await startAgentDouble({ skipReadbackRate: 0.3 });
    const history = BOOKING.flatMap((text) => [
      { role: 'agent' as const, text: '…' },
      { role: 'caller' as const, text },
    ]);
    for (const id of ids) await webhook(rerun, id, history);
    await Promise.all([first.close(), rerun.close()]);
    const decided = ids.map((id) => first.conversations.get(id)!);
    expect(decided.map((c) => c.skipReadback)).toEqual(
      ids.map((id) => rerun.conversations.get(id)!.skipReadback),
    );
    const share = decided.filter((c) => c.skipReadback).length / ids.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.45);
    for (const c of decided) {
      const last = c.replies.at(-1)!;
      expect(last.state).toMatchObject({ booked: c.skipReadback, readBack: false });
      expect(last.text).toMatch(
        c.skipReadback ? /you're booked, Jane Doe/ : /^So that's March 14, correct\?$/,
      );
    }
  });

  it('quotes a wrong price for wrongPriceService only, and setOptions changes behaviour between runs', async () => {
    const ask = (service: string) => playWebhook(agent, randomUUID(), [`How much is a ${service}?`]);
    agent.setOptions({ wrongPriceService: 'flu shot' });
    expect((await ask('flu shot'))[1]).toMatch(`costs $${wrongPriceOf('flu shot')}.`);
    expect((await ask('general checkup'))[1]).toMatch(`costs $${CLINIC_PRICES['general checkup']}.`);
    agent.setOptions({ wrongPriceService: null });
    expect((await ask('flu shot'))[1]).toMatch(`costs $${CLINIC_PRICES['flu shot']}.`);
  });

  it('fails the same turns on a rerun with failRate, and serves scripted failures first', async () => {
    const failing = async () => {
      const double = await startAgentDouble({ failRate: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await webhook(double, `c-${i}`, [])).status);
      await double.close();
      return statuses;
    };
    const first = await failing();
    expect(first).toEqual(await failing());
    expect(first).toContain(500);
    expect(first).toContain(200);

    agent.failNext('malformed', 'wrong_shape', 'http_500');
    const id = randomUUID();
    const malformed = await fetch(`${agent.chatBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-agent' },
      body: JSON.stringify({ model: 'm', messages: [], user: id }),
    });
    expect(await malformed.text()).toMatch(/^<html>/);
    expect((await chat(agent, id, [])).body).toEqual({ message: 'unexpected shape' });
    expect((await chat(agent, id, [])).status).toBe(500);
    expect(agent.conversations.get(id)!.failures).toEqual(['malformed', 'wrong_shape', 'http_500']);
  });

  it('does not answer a turn scripted to time out', async () => {
    agent.failNext('timeout');
    const id = randomUUID();
    const call = fetch(`${agent.chatBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-agent' },
      body: JSON.stringify({ model: 'm', messages: [], user: id }),
      signal: AbortSignal.timeout(300),
    });
    await expect(call).rejects.toThrow(/abort|timeout/i);
    expect(agent.conversations.get(id)!.failures).toEqual(['timeout']);
  });
});
