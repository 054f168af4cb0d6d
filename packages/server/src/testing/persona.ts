import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, shareOf } from './agent.js';

/**
 * A loopback OpenAI-compatible chat double playing the simulated caller. Requests whose
 * `response_format.json_schema.name` is `persona_turn` (the persona-caller prompt) get the next
 * turn of a scripted clinic caller who wants to book an appointment; every other request (the LLM
 * judge) is forwarded to `forwardTo`, so one AI provider URL can serve a whole suite run.
 */

/** How a persona turn fails: HTTP 500, no answer, or content that is not the `persona_turn` JSON. */
export type PersonaFailureMode = 'http_500' | 'timeout' | 'malformed';

/** Options of {@link startPersonaDouble}; all can change with `setOptions`. */
export interface PersonaDoubleOptions {
  /** Delay before every persona turn, in ms. @default 0 */
  latencyMs?: number;
  /** Base URL (ending in `/v1`) that requests for other schemas are forwarded to, e.g. the judge double. */
  forwardTo?: string;
  /** Share of persona turns (0..1) that fail with `failure`, picked from the prompt. @default 0 */
  failRate?: number;
  /** @default 'http_500' */
  failure?: PersonaFailureMode;
}

/** What the persona prompt told the double, and what it answered. */
export type PersonaTurnRecord = {
  scenario: string;
  requiredInfo: Record<string, unknown>;
  turns: Array<{ speaker: 'agent' | 'caller'; text: string }>;
  reply: { text: string; end_call: boolean } | { failure: PersonaFailureMode };
};

/** A running persona double. */
export interface PersonaDouble {
  /** The base URL clients use, ending in `/v1`. */
  url: string;
  /** Every persona turn asked for, in arrival order. */
  turns: PersonaTurnRecord[];
  /** Requests passed on to `forwardTo`. */
  forwarded(): number;
  setOptions(patch: PersonaDoubleOptions): void;
  /** The next persona turns fail this way, in order, before `failRate` applies. */
  failNext(...modes: PersonaFailureMode[]): void;
  close(): Promise<void>;
}

const section = (prompt: string, tag: string) =>
  prompt.match(new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`))?.[1] ?? '';

/** The numbered `N. agent: …` / `N. caller: …` lines of `<conversation>`; a wrapped line joins its turn. */
export const parseConversation = (prompt: string): PersonaTurnRecord['turns'] => {
  const turns: PersonaTurnRecord['turns'] = [];
  for (const line of section(prompt, 'conversation').split('\n')) {
    const turn = /^\d+\. (agent|caller): (.*)$/.exec(line);
    if (turn) turns.push({ speaker: turn[1] as 'agent' | 'caller', text: turn[2]! });
    else if (turns.length > 0 && line) turns[turns.length - 1]!.text += `\n${line}`;
  }
  return turns;
};

/** `<required_info>` as an object; anything else (absent, a list, a string) gives nothing to tell. */
const requiredInfoOf = (prompt: string): Record<string, unknown> => {
  try {
    const info: unknown = JSON.parse(section(prompt, 'required_info') || '{}');
    return info && typeof info === 'object' && !Array.isArray(info) ? (info as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const infoOf = (info: Record<string, unknown>, pattern: RegExp, fallback: string) => {
  const key = Object.keys(info).find((k) => pattern.test(k));
  return key === undefined ? fallback : String(info[key]);
};

/**
 * The scripted caller's next turn: asks to book, gives the name and date of `<required_info>`
 * when asked, confirms the read-back, asks a price once if the scenario mentions price, then says
 * goodbye with `end_call` (also on its last turn, or when the agent says goodbye).
 */
export const nextCallerTurn = (prompt: string): { text: string; end_call: boolean } => {
  const scenario = section(prompt, 'scenario');
  const info = requiredInfoOf(prompt);
  const turns = parseConversation(prompt);
  const agent =
    [...turns]
      .reverse()
      .find((t) => t.speaker === 'agent')
      ?.text.toLowerCase() ?? '';
  const said = turns.filter((t) => t.speaker === 'caller').map((t) => t.text);
  const service = infoOf(info, /service|reason/i, 'general checkup');
  const goodbye = { text: "No, that's all. Thank you, goodbye!", end_call: true };
  if (/this is your last turn/i.test(prompt) || /\bgoodbye\b/.test(agent)) return goodbye;
  if (said.length === 0)
    return { text: `Hi, I'd like to book an appointment for a ${service}.`, end_call: false };
  if (/\bname\b/.test(agent))
    return { text: `My name is ${infoOf(info, /name/i, 'Alex Morgan')}.`, end_call: false };
  if (/\b(what|which) (date|day)\b|\bwhen would\b/.test(agent)) {
    return { text: `${infoOf(info, /date|day|when/i, 'next Monday')}, please.`, end_call: false };
  }
  if (/correct\?|is that right\?/.test(agent)) return { text: "Yes, that's correct.", end_call: false };
  if (/would you like to book/.test(agent))
    return { text: "Yes, I'd like to book an appointment.", end_call: false };
  if (/anything else/.test(agent)) {
    const wantsPrice = /\b(prices?|pricing|costs?|how much)\b/i.test(scenario);
    const asked = said.some((text) => /how much/i.test(text));
    return wantsPrice && !asked ? { text: `How much does a ${service} cost?`, end_call: false } : goodbye;
  }
  return { text: 'Sorry, could you say that again?', end_call: false };
};

const completion = (content: string) => ({
  id: 'chatcmpl-persona',
  object: 'chat.completion',
  model: 'persona-double',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  usage: { prompt_tokens: 120, completion_tokens: 15, total_tokens: 135 },
});

/** Starts the persona double on 127.0.0.1 on a free port. */
export async function startPersonaDouble(initial: PersonaDoubleOptions = {}): Promise<PersonaDouble> {
  let options = { ...initial };
  const turns: PersonaTurnRecord[] = [];
  const scripted: PersonaFailureMode[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let forwarded = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed)
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }, options.latencyMs ?? 0);
    timers.add(timer);
  };

  const forward = async (req: IncomingMessage, raw: string, res: ServerResponse) => {
    if (!options.forwardTo)
      return send(res, 400, { error: { message: 'no persona_turn schema and no forwardTo' } });
    forwarded += 1;
    const upstream = await fetch(`${options.forwardTo}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: String(req.headers.authorization ?? '') },
      body: raw,
    });
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    });
    res.end(await upstream.text());
  };

  const persona = (prompt: string, res: ServerResponse) => {
    const record = {
      scenario: section(prompt, 'scenario'),
      requiredInfo: requiredInfoOf(prompt),
      turns: parseConversation(prompt),
    };
    const failRate = options.failRate ?? 0;
    const failure =
      scripted.shift() ??
      (failRate > 0 && shareOf(`persona:${prompt}`) < failRate ? (options.failure ?? 'http_500') : null);
    if (failure) {
      turns.push({ ...record, reply: { failure } });
      if (failure === 'timeout') return;
      if (failure === 'http_500') return send(res, 500, { error: { message: 'persona model crashed' } });
      return send(res, 200, completion('I am not JSON'));
    }
    const reply = nextCallerTurn(prompt);
    turns.push({ ...record, reply });
    send(res, 200, completion(JSON.stringify(reply)));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return send(res, 404, { error: 'not found' });
    const body = JSON.parse(raw);
    if (body?.response_format?.json_schema?.name !== 'persona_turn') return forward(req, raw, res);
    const user = (body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user');
    persona(typeof user?.content === 'string' ? user.content : '', res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad request' } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    turns,
    forwarded: () => forwarded,
    setOptions: (patch) => {
      options = { ...options, ...patch };
    },
    failNext: (...modes) => void scripted.push(...modes),
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
