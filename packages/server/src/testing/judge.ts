import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP double of an OpenAI-compatible chat endpoint acting as the LLM judge: it reads
 * the metrics and the transcript out of the judge prompt (`judge_score` v2), answers a valid
 * score for every metric after a fixed latency, and records every call's interval, so tests and
 * the dispatch benchmark can measure concurrency from the outside.
 */

/** A metric as the judge prompt lists it. */
export type JudgedMetric = {
  key: string;
  type: 'boolean' | 'rating' | 'number' | 'category';
  mode: 'single_choice' | 'multi_label' | null;
  min: number | null;
  max: number | null;
  labels: string[];
  /** What the prompt says the metric judges (the line under its key). */
  description: string;
};

/** One chat call as the double saw it; times from `performance.now()`, in ms. */
export type JudgeCall = {
  tag: string | null;
  transcript: string;
  start: number;
  end: number | null;
  /** The prompt asked for discovered problems (`allowDiscovery`). */
  discovery?: boolean;
};

/** A problem the judge reports outside the metrics, as `judge_score` v2 replies it. */
export type JudgeDiscovery = {
  key: string;
  name: string;
  metric_type: 'boolean' | 'rating' | 'number' | 'category';
  observation: string;
  evidence: string | null;
};

/** Options of {@link startJudgeDouble}; only the latency can change later (`setLatency`). */
export type JudgeDoubleOptions = {
  /** Delay before every reply, in ms. @default 0 */
  latencyMs?: number;
  /** Picks the tag of a call from its transcript. @default the first `row=<token>` in it */
  tagOf?: (transcript: string) => string | null;
  /** The value for one metric. @default true, the top of the range, the first label */
  answer?: (metric: JudgedMetric, transcript: string) => unknown;
  /** The rationale for one metric's value. @default `judged <key>` */
  rationale?: (metric: JudgedMetric, transcript: string) => string;
  /**
   * The quotes one metric's value relies on, each with its turn number as the prompt shows it
   * (`3. agent: ...` is turn 3). @default none
   */
  evidence?: (metric: JudgedMetric, transcript: string) => Array<{ quote: string; turn: number }>;
  /**
   * Problems outside the metrics for one call, replied only when the prompt asks for discoveries
   * (as a judge following the prompt would). @default none
   */
  discover?: (transcript: string) => JudgeDiscovery[];
  /** A reply that replaces the scores (an error status, a malformed body), or undefined. */
  override?: (call: JudgeCall) => { status: number; body: unknown } | undefined;
};

/** A running judge double. */
export type JudgeDouble = {
  /** The base URL clients use, ending in `/v1`. */
  url: string;
  /** Every call answered or being answered, in arrival order. */
  calls: JudgeCall[];
  /** Calls being answered now. */
  active(): number;
  /** The most calls ever answered at once. */
  peak(): number;
  /** Sets the delay before every later reply, in ms. */
  setLatency(ms: number): void;
  /** Stops the server, ending calls still waiting for their reply. */
  close(): Promise<void>;
};

const LINE = /^- key ("(?:[^"\\]|\\.)*"): .* \[(boolean|rating|number|category)(.*)\]$(?:\n {2}(.*))?/gm;

/** The metrics a judge prompt lists. */
export const parseMetrics = (prompt: string): JudgedMetric[] =>
  [...prompt.matchAll(LINE)].map((m) => {
    const rest = m[3] ?? '';
    const range = rest.match(/ from (\S+) to (\S+)/);
    const labelPart = rest.match(/ labels: (.*)$/)?.[1] ?? '';
    const num = (s: string | undefined) =>
      s === undefined || !Number.isFinite(Number(s)) ? null : Number(s);
    return {
      key: JSON.parse(m[1]!) as string,
      type: m[2] as JudgedMetric['type'],
      mode: (rest.match(/\((single_choice|multi_label)\)/)?.[1] as JudgedMetric['mode']) ?? null,
      min: num(range?.[1]),
      max: num(range?.[2]),
      labels: [...labelPart.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((l) => JSON.parse(l[0]) as string),
      description: m[4] ?? '',
    };
  });

/** A value every metric type accepts. */
export const defaultAnswer = (metric: JudgedMetric): unknown => {
  if (metric.type === 'boolean') return true;
  if (metric.type === 'rating') return metric.max ?? 5;
  if (metric.type === 'number') return metric.min ?? 0;
  const first = metric.labels[0] ?? 'other';
  return metric.mode === 'multi_label' ? [first] : first;
};

/** The most calls in flight at once per key (`keyOf` undefined: the call is left out), from their intervals. */
export const peakConcurrency = (
  calls: readonly JudgeCall[],
  keyOf: (call: JudgeCall) => string | undefined,
) => {
  const events: Array<{ at: number; key: string; delta: number }> = [];
  for (const call of calls) {
    const key = keyOf(call);
    if (key === undefined) continue;
    events.push(
      { at: call.start, key, delta: 1 },
      { at: call.end ?? Number.POSITIVE_INFINITY, key, delta: -1 },
    );
  }
  // at equal times an end comes before a start: back-to-back calls do not overlap
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  const now = new Map<string, number>();
  const peak = new Map<string, number>();
  for (const e of events) {
    now.set(e.key, (now.get(e.key) ?? 0) + e.delta);
    peak.set(e.key, Math.max(peak.get(e.key) ?? 0, now.get(e.key)!));
  }
  return peak;
};

const transcriptOf = (prompt: string) => prompt.match(/<transcript>\n([\s\S]*?)\n<\/transcript>/)?.[1] ?? '';

const readJson = (req: IncomingMessage): Promise<{ messages?: Array<{ role: string; content?: unknown }> }> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });

const completion = (content: unknown) => ({
  id: 'chatcmpl-judge',
  object: 'chat.completion',
  model: 'judge-double',
  choices: [
    { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } },
  ],
  usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
});

/** Starts the judge double on 127.0.0.1 on a free port. */
export const startJudgeDouble = async (options: JudgeDoubleOptions = {}): Promise<JudgeDouble> => {
  let latencyMs = options.latencyMs ?? 0;
  let active = 0;
  let peak = 0;
  const calls: JudgeCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const tagOf = options.tagOf ?? ((t: string) => t.match(/\brow=(\S+)/)?.[1] ?? null);
  const answer = options.answer ?? defaultAnswer;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    const body = await readJson(req);
    const user = String(body.messages?.find((m: { role: string }) => m.role === 'user')?.content ?? '');
    const transcript = transcriptOf(user);
    const discovery = user.includes('Also report discovered problems.');
    const call: JudgeCall = {
      tag: tagOf(transcript),
      transcript,
      start: performance.now(),
      end: null,
      discovery,
    };
    calls.push(call);
    active += 1;
    peak = Math.max(peak, active);
    const reply = options.override?.(call) ?? {
      status: 200,
      body: completion({
        scores: parseMetrics(user).map((m) => ({
          key: m.key,
          value: answer(m, transcript),
          rationale: options.rationale?.(m, transcript) ?? `judged ${m.key}`,
          evidence: options.evidence?.(m, transcript) ?? [],
        })),
        discovered: discovery ? (options.discover?.(transcript) ?? []) : [],
      }),
    };
    const timer = setTimeout(() => {
      timers.delete(timer);
      call.end = performance.now();
      active -= 1;
      if (!res.destroyed)
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    }, latencyMs);
    timers.add(timer);
    // a caller that gave up (its lease was lost, or it was cancelled) ends the call early
    res.on('close', () => {
      if (call.end === null && timers.delete(timer)) {
        clearTimeout(timer);
        call.end = performance.now();
        active -= 1;
      }
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(400).end());
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    active: () => active,
    peak: () => peak,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
