import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type ClinicReply, type ClinicService, nextClinicTurn } from './clinic-agent.js';

/**
 * A loopback double of a voice agent under test: the scripted clinic-booking agent of
 * `clinic-agent.ts` behind both wire formats of an agent connection. `POST /v1/chat/completions`
 * (OpenAI-compatible; it hangs up with a tool call named `end_call`) and `POST /webhook` (verifies
 * the Standard Webhooks signature, 401 on a bad one; answers `{ reply, end_call }`). Failure modes
 * are seeded so a rerun behaves the same, and every conversation served is recorded.
 */

/** How a failing turn fails: HTTP 500, no answer at all, a non-JSON body, or JSON of the wrong shape. */
export type AgentFailureMode = 'http_500' | 'timeout' | 'malformed' | 'wrong_shape';

/** Options of {@link startAgentDouble}; all but `webhookSecret` can change with `setOptions`. */
export interface AgentDoubleOptions {
  /** Delay before every answer, in ms. @default 0 */
  latencyMs?: number;
  /** Share of calls (0..1) in which the agent books without reading the date back. @default 0 */
  skipReadbackRate?: number;
  /** A service whose price the agent quotes wrong (the right one plus $45, `wrongPriceOf`). @default null */
  wrongPriceService?: ClinicService | null;
  /** Share of turns (0..1) that fail with `failure`, picked from the conversation id and turn. @default 0 */
  failRate?: number;
  /** How a turn picked by `failRate` fails. @default 'http_500' */
  failure?: AgentFailureMode;
  /** Bearer token the chat endpoint requires (401 otherwise); null accepts any. @default null */
  apiKey?: string | null;
  /** The `whsec_…` secret webhook requests must be signed with. @default a random one */
  webhookSecret?: string;
}

/** A request as the double received it, refused ones included. */
export type AgentDoubleRequest = { path: string; headers: Record<string, string>; body: string };

/** One conversation the double served, by conversation id (webhook) or `user` (chat). */
export type ServedConversation = {
  id: string;
  kind: 'openai_chat' | 'webhook';
  /** The `seed` of the chat requests; null for webhooks, which carry none. */
  seed: number | null;
  /** Whether this call skips the read-back, decided once from its id and seed. */
  skipReadback: boolean;
  /** The turns answered, in order; the last one's `state` is where the call stands. */
  replies: ClinicReply[];
  /** Failures served to this conversation, in order. */
  failures: AgentFailureMode[];
};

/** A running double. */
export interface AgentDouble {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The `base_url` of an `openai_chat` connection (`<url>/v1`). */
  chatBaseUrl: string;
  /** The `url` of a `webhook` connection (`<url>/webhook`). */
  webhookUrl: string;
  webhookSecret: string;
  requests: AgentDoubleRequest[];
  conversations: Map<string, ServedConversation>;
  setOptions(patch: Omit<AgentDoubleOptions, 'webhookSecret'>): void;
  /** The next requests fail this way, in order, before `failRate` applies. */
  failNext(...modes: AgentFailureMode[]): void;
  close(): Promise<void>;
}

/** A number in [0, 1) fixed by `key`: the same call makes the same choice on every turn and rerun. */
export const shareOf = (key: string) => createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;

/** What the platform sends as the only turn of a greeting request without a system prompt. */
const CALL_CONNECTED = '(call connected)';

type Parsed = { conversationId: string; seed: number | null; turn: number; callerTurns: string[] };

/** A JSON request body before it is checked: any field may be missing or of another type. */
type Unchecked = { [field: string]: unknown } | null | undefined;

const parseChat = (body: Unchecked): Parsed | null => {
  if (typeof body?.model !== 'string' || !Array.isArray(body.messages)) return null;
  const turns = (body.messages as Array<{ role: string; content: unknown }>).filter(
    (m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string',
  );
  if (turns[0]?.role === 'user' && turns[0].content === CALL_CONNECTED) turns.shift();
  return {
    conversationId: typeof body.user === 'string' ? body.user : 'anonymous',
    seed: typeof body.seed === 'number' ? body.seed : null,
    turn: turns.length,
    callerTurns: turns.filter((m) => m.role === 'user').map((m) => m.content as string),
  };
};

const parseWebhook = (body: Unchecked): Parsed | null => {
  if (typeof body?.conversation_id !== 'string' || !Array.isArray(body.messages)) return null;
  const messages = body.messages as Array<{ role: string; text: string }>;
  return {
    conversationId: body.conversation_id,
    seed: null,
    turn: typeof body.turn === 'number' ? body.turn : 0,
    callerTurns: messages.filter((m) => m.role === 'caller').map((m) => m.text),
  };
};

/** The hang-up convention of the `openai_chat` channel: a tool call named `end_call`. */
const END_CALL = [{ id: 'call_end', type: 'function', function: { name: 'end_call', arguments: '{}' } }];

const completion = ({ text, endCall }: ClinicReply) => ({
  id: 'chatcmpl-agent-double',
  object: 'chat.completion',
  model: 'clinic-agent',
  choices: [
    {
      index: 0,
      finish_reason: endCall ? 'tool_calls' : 'stop',
      message: { role: 'assistant', content: text, ...(endCall ? { tool_calls: END_CALL } : {}) },
    },
  ],
  usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
});

/** The raw body of a request, as a string. */
export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });

const parseJson = (text: string): Unchecked => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** Starts the agent double on 127.0.0.1 on a free port. */
export async function startAgentDouble(initial: AgentDoubleOptions = {}): Promise<AgentDouble> {
  let options: AgentDoubleOptions = { ...initial };
  const webhookSecret = initial.webhookSecret ?? `whsec_${randomBytes(32).toString('base64')}`;
  const verifier = new Webhook(webhookSecret);
  const requests: AgentDoubleRequest[] = [];
  const conversations = new Map<string, ServedConversation>();
  const scripted: AgentFailureMode[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const later = (fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, options.latencyMs ?? 0);
    timers.add(timer);
  };
  const send = (res: ServerResponse, status: number, body: string, type = 'application/json') =>
    later(() => {
      if (!res.destroyed) res.writeHead(status, { 'content-type': type }).end(body);
    });

  const conversationOf = (kind: ServedConversation['kind'], parsed: Parsed) => {
    let conversation = conversations.get(parsed.conversationId);
    if (!conversation) {
      const key = parsed.seed === null ? parsed.conversationId : `${parsed.conversationId}:${parsed.seed}`;
      const skipReadback = shareOf(`readback:${key}`) < (options.skipReadbackRate ?? 0);
      conversation = {
        id: parsed.conversationId,
        kind,
        seed: parsed.seed,
        skipReadback,
        replies: [],
        failures: [],
      };
      conversations.set(parsed.conversationId, conversation);
    }
    return conversation;
  };

  const failureFor = (parsed: Parsed): AgentFailureMode | null => {
    const next = scripted.shift();
    if (next) return next;
    const failRate = options.failRate ?? 0;
    if (failRate > 0 && shareOf(`fail:${parsed.conversationId}:${parsed.turn}`) < failRate) {
      return options.failure ?? 'http_500';
    }
    return null;
  };

  const serve = (res: ServerResponse, kind: ServedConversation['kind'], parsed: Parsed) => {
    const conversation = conversationOf(kind, parsed);
    const failure = failureFor(parsed);
    if (failure) {
      conversation.failures.push(failure);
      if (failure === 'timeout') return; // the socket stays open until the client gives up
      if (failure === 'http_500') return send(res, 500, JSON.stringify({ error: 'agent crashed' }));
      if (failure === 'malformed') return send(res, 200, '<html>upstream error</html>', 'text/html');
      return send(res, 200, JSON.stringify({ message: 'unexpected shape' }));
    }
    const reply = nextClinicTurn(parsed.callerTurns, {
      skipReadback: conversation.skipReadback,
      wrongPriceService: options.wrongPriceService ?? null,
    });
    conversation.replies.push(reply);
    const body = kind === 'webhook' ? { reply: reply.text, end_call: reply.endCall } : completion(reply);
    send(res, 200, JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path, headers, body });
    const fail = (status: number, message: string) => send(res, status, JSON.stringify({ error: message }));
    if (req.method !== 'POST') return fail(404, 'not found');
    if (path === '/v1/chat/completions') {
      if (options.apiKey && headers.authorization !== `Bearer ${options.apiKey}`)
        return fail(401, 'bad api key');
      const parsed = parseChat(parseJson(body));
      return parsed ? serve(res, 'openai_chat', parsed) : fail(400, 'model and messages are required');
    }
    if (path === '/webhook') {
      try {
        verifier.verify(body, headers);
      } catch {
        return fail(401, 'bad signature');
      }
      const parsed = parseWebhook(parseJson(body));
      return parsed ? serve(res, 'webhook', parsed) : fail(400, 'conversation_id and messages are required');
    }
    fail(404, 'not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    chatBaseUrl: `${url}/v1`,
    webhookUrl: `${url}/webhook`,
    webhookSecret,
    requests,
    conversations,
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
