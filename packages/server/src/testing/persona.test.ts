import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiCompatibleProvider } from '../providers/openai-compatible-provider.js';
import {
  judgeScoreV2,
  type PersonaCallerVars,
  personaCallerV1,
  renderPrompt,
} from '../providers/prompts/index.js';
import { type AgentDouble, startAgentDouble } from './agent.js';
import { CLINIC_GOODBYE, CLINIC_PRICES } from './clinic-agent.js';
import { type JudgeDouble, startJudgeDouble } from './judge.js';
import { type PersonaDouble, startPersonaDouble } from './persona.js';

let agent: AgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;
beforeAll(async () => {
  [agent, judge] = await Promise.all([startAgentDouble(), startJudgeDouble()]);
  persona = await startPersonaDouble({ forwardTo: judge.url });
});
afterAll(() => Promise.all([agent.close(), judge.close(), persona.close()]));

/** The provider adapter the server uses, pointed at the persona double, with no retries. */
const provider = () =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: persona.url,
    apiKey: 'sk-persona',
    chatModel: 'persona-model',
    retry: { maxRetries: 0 },
  });

type Turn = PersonaCallerVars['turns'][number];

const agentTurn = async (conversationId: string, turns: Turn[]) => {
  const messages = turns.map((t) => ({
    role: t.speaker === 'agent' ? 'assistant' : 'user',
    content: t.text,
  }));
  const res = await fetch(`${agent.chatBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'clinic',
      messages: [{ role: 'system', content: 'You are Riley.' }, ...messages],
      user: conversationId,
    }),
  });
  const message = ((await res.json()) as any).choices[0].message;
  return { text: message.content as string, endCall: Boolean(message.tool_calls?.length) };
};

const vars = (turns: Turn[], description: string, turnsLeft = 10): PersonaCallerVars => ({
  persona: { name: 'Jane', gender: 'female', description: 'A busy parent.' },
  scenario: {
    name: 'Book a cleaning',
    description,
    requiredInfo: { name: 'Jane Doe', preferred_date: 'March 14', service: 'dental cleaning' },
  },
  callType: 'inbound',
  turns,
  turnsLeft,
});

/** A whole call between the two doubles, the persona reached through the real provider adapter. */
const playCall = async (description: string) => {
  const turns: Turn[] = [];
  const id = randomUUID();
  for (let i = 0; i < 12; i++) {
    const said = await agentTurn(id, turns);
    turns.push({ speaker: 'agent', text: said.text });
    if (said.endCall) break;
    const reply = await provider().chat({ ...renderPrompt(personaCallerV1, vars(turns, description)) });
    if (!reply.ok) throw new Error(reply.error.message);
    turns.push({ speaker: 'caller', text: reply.value.data.text });
    if (reply.value.data.end_call) break;
  }
  return { turns, conversation: agent.conversations.get(id)! };
};

describe('persona double', () => {
  it('books with the required info, asks the price when the scenario mentions it, then hangs up', async () => {
    const { turns, conversation } = await playCall('Book a dental cleaning and ask what it costs.');
    const caller = turns.filter((t) => t.speaker === 'caller').map((t) => t.text);
    expect(caller).toEqual([
      "Hi, I'd like to book an appointment for a dental cleaning.",
      'My name is Jane Doe.',
      'March 14, please.',
      "Yes, that's correct.",
      'How much does a dental cleaning cost?',
      "No, that's all. Thank you, goodbye!",
    ]);
    expect(turns.at(-2)!.text).toMatch(`$${CLINIC_PRICES['dental cleaning']}`);
    expect(persona.turns.at(-1)!.reply).toEqual({ text: caller.at(-1), end_call: true });
    expect(conversation.replies.at(-1)!.state).toMatchObject({
      booked: true,
      readBack: true,
      name: 'Jane Doe',
    });
    expect(persona.turns.at(-1)!.requiredInfo).toMatchObject({ preferred_date: 'March 14' });
  });

  it('does not ask a price the scenario does not mention, and says goodbye on its last turn', async () => {
    const { turns } = await playCall('Book a dental cleaning.');
    expect(turns.some((t) => /how much/i.test(t.text))).toBe(false);
    expect(turns.at(-1)).toEqual({ speaker: 'caller', text: "No, that's all. Thank you, goodbye!" });
    const last = await provider().chat({
      ...renderPrompt(personaCallerV1, vars([{ speaker: 'agent', text: 'How can I help?' }], 'x', 1)),
    });
    expect(last.ok && last.value.data.end_call).toBe(true);
    const ended = await agentTurn(randomUUID(), [{ speaker: 'caller', text: 'Goodbye!' }]);
    expect(ended).toEqual({ text: CLINIC_GOODBYE, endCall: true });
  });

  it('forwards requests for other schemas (the judge) to forwardTo', async () => {
    const before = judge.calls.length;
    const scored = await provider().chat({
      ...renderPrompt(judgeScoreV2, {
        turns: [{ speaker: 'agent', text: 'row=r1 hello' }],
        metrics: [{ key: 'polite', name: 'Polite', description: 'Was it polite?', metric_type: 'boolean' }],
        allowDiscovery: false,
      }),
    });
    expect(scored).toMatchObject({ ok: true, value: { data: { scores: [{ key: 'polite', value: true }] } } });
    expect(judge.calls.length).toBe(before + 1);
    expect(persona.forwarded()).toBe(1);
  });

  it('fails scripted persona turns as asked', async () => {
    const prompt = renderPrompt(personaCallerV1, vars([{ speaker: 'agent', text: 'Hello?' }], 'x'));
    persona.failNext('http_500', 'malformed');
    expect(await provider().chat(prompt)).toMatchObject({ ok: false, error: { code: 'provider_error' } });
    expect(await provider().chat(prompt)).toMatchObject({
      ok: false,
      error: { code: 'invalid_provider_response' },
    });
    expect(await provider().chat(prompt)).toMatchObject({ ok: true });
    expect(persona.turns.slice(-3).map((t) => ('failure' in t.reply ? t.reply.failure : 'ok'))).toEqual([
      'http_500',
      'malformed',
      'ok',
    ]);
  });
});
