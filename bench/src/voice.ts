import { fork } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
// white-box: the bench drives the voice call engine itself, without a database, dispatcher or
// providers, so what it measures is the engine's real-time frame pacing and its CPU per call
import {
  audioWorker,
  createFramePacer,
  type NoisePreset,
  presetAmbience,
  runVoiceCall,
  type VoiceOutcome,
  type VoiceParties,
} from '@voice-eval/server/bench-internals';
import type { DoublesReply, DoublesRequest } from './voice-doubles.js';

/** Concurrent calls of each step, run one step after another. */
const STEPS = [1, 2, 4, 8, 16, 32, 64];
/** The pacing jitter (p99 frame lateness) a real-time call tolerates, in ms. */
const JITTER_LIMIT_MS = 5;
/** The agent double's reply latency: above its 400 ms VAD hangover, so it is not the VAD's. */
const LATENCY_MS = 700;
const SETUP = {
  maxTurns: 4,
  responseDelayMs: 300,
  turnTimeoutMs: 5_000,
  allowInterruptions: false,
  bargeInAfterMs: 2_500,
};
/**
 * The persona's turns: three that take the clinic agent's booking to its read-back, then a
 * confirmation and goodbye that hangs up. A call is about 28 s.
 */
const SCRIPT = [
  'I want to book an appointment.',
  'My name is Jordan Lee.',
  'Next Tuesday, please.',
  'Yes, thank you. Goodbye.',
];
/** Calls of a step start evenly over this much time, as independent calls would, not in lock-step. */
const STAGGER_MS = 2_000;
/** A call still going after this is aborted. */
const CALL_LIMIT_MS = 90_000;
/** No step starts that would end (at the last step's length) after this much of the bench. */
const BUDGET_MS = 290_000;
/** A step taking this many times as long as the first one (calls slowed by the load) ends the sweep. */
const SLOW_STEP = 2;

const STOPPED = { none: 0, overTwice: 1, budget: 2, slowStep: 3 } as const;

/** Nearest-rank percentile of sorted values; 0 for none. */
const percentile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
const sortedOf = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Time this thread's event loop was busy, in ms: its CPU, with nothing else on its core. */
const threadBusyMs = () => performance.eventLoopUtilization().active;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A request without its id, each kind apart. */
type Ask = DoublesRequest extends infer R ? (R extends DoublesRequest ? Omit<R, 'id'> : never) : never;

/** The process with the agent double and the speech provider (`voice-doubles.ts`). */
const startDoubles = async () => {
  // forked with this process's flags (the source condition, tsx's loader)
  const child = fork(fileURLToPath(new URL('./voice-doubles.ts', import.meta.url)), {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (r: DoublesReply) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  child.on('message', (reply: DoublesReply) => {
    pending.get(reply.id)?.resolve(reply);
    pending.delete(reply.id);
  });
  child.on('error', failAll);
  child.on('exit', (code) => failAll(new Error(`the doubles' process exited (${code})`)));
  const ask = (request: Ask) =>
    new Promise<DoublesReply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  const started = await ask({ kind: 'start', latencyMs: LATENCY_MS });
  if (started.kind !== 'started') throw new Error('the doubles did not start');
  return {
    url: started.url,
    ask,
    usage: async () => {
      const usage = await ask({ kind: 'usage' });
      if (usage.kind !== 'usage') throw new Error(`usage answered ${usage.kind}`);
      return usage;
    },
    close: async () => {
      await ask({ kind: 'close' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
};
type Doubles = Awaited<ReturnType<typeof startDoubles>>;

/**
 * The persona's side of a call: the script, its speech from the provider (24 kHz, resampled to
 * 8 kHz on the audio worker as the engine's `personaVoice` does) and the provider's ears for the agent.
 */
const partiesFor = (doubles: Doubles, noise: VoiceParties['noise'] = null): VoiceParties => ({
  stream: { url: doubles.url, headers: {}, customParameters: {} },
  caller: async (turns) => {
    const said = turns.filter((t) => t.speaker === 'caller').length;
    const index = Math.min(said, SCRIPT.length - 1);
    return { ok: true, text: SCRIPT[index]!, endCall: index === SCRIPT.length - 1 };
  },
  speak: async (text) => {
    const reply = await doubles.ask({ kind: 'speak', text });
    if (reply.kind !== 'spoken') throw new Error(`speak answered ${reply.kind}`);
    return {
      ok: true,
      value: await audioWorker.run({ kind: 'resample', pcm: reply.pcm, fromRate: 24_000, sampleRate: 8_000 }),
    };
  },
  hear: async (pcm) => {
    const reply = await doubles.ask({ kind: 'hear', pcm });
    if (reply.kind !== 'heard') throw new Error(`hear answered ${reply.kind}`);
    return { ok: true, value: reply.text };
  },
  noise,
});

/**
 * `BENCH_VOICE_NOISE=<preset>`: each call gets that ambience as the server gives a persona with a
 * noise preset (the preset's minute generated once on the audio worker, each call starting where
 * its seed points), at `background_noise_volume` 0.5 (12 dB under the speech). Unset: no ambience.
 */
const AMBIENCE = process.env.BENCH_VOICE_NOISE as NoisePreset | undefined;
const ambienceFor = async (seed: number): Promise<VoiceParties['noise']> =>
  AMBIENCE ? presetAmbience(AMBIENCE, 0.5, seed) : null;

/** The pacer alone, ticking for `ms` with nothing else running: the machine's own timer jitter. */
const lonePacer = async (ms: number) => {
  const pacer = createFramePacer();
  const lateness: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) lateness.push(await pacer.next());
  return sortedOf(lateness);
};

/** Whether a call went as the script goes: four caller turns, every turn heard, the caller hanging up. */
const onScript = (o: VoiceOutcome) =>
  o.ok &&
  o.endReason === 'caller_ended' &&
  o.turns.filter((t) => t.speaker === 'user').length === SCRIPT.length &&
  o.turns.every((t) => t.text.length > 0);

/** `n` calls against the doubles, started over STAGGER_MS: their pacing, CPU and measured latency. */
const runStep = async (n: number, doubles: Doubles) => {
  const far0 = await doubles.usage();
  // the process's peak resident memory over the step, sampled four times a second, above its start
  const rss0 = process.memoryUsage.rss();
  let rssPeak = rss0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 250);
  const [cpu0, busy0, t0] = [processCpuMs(), threadBusyMs(), performance.now()];
  const outcomes = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await sleep((i * STAGGER_MS) / n);
      const setup = { ...SETUP, conversationId: `bench-voice-${n}-${i}` };
      const parties = partiesFor(doubles, await ambienceFor(randomInt(2 ** 31 - 1)));
      return runVoiceCall(parties, setup, AbortSignal.timeout(CALL_LIMIT_MS));
    }),
  );
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  const [cpu, busy, far] = [processCpuMs() - cpu0, threadBusyMs() - busy0, await doubles.usage()];
  const lateness = sortedOf(outcomes.flatMap((o) => o.lateness));
  // every tick is 20 ms of a call's audio, however the call ended
  const callSeconds = (lateness.length * 20) / 1000;
  const errors = outcomes
    .map((o) => o.measures?.agent_latency_p50_ms)
    .filter((v): v is number => typeof v === 'number')
    .map((v) => Math.abs(v - LATENCY_MS));
  return {
    n,
    p50: percentile(lateness, 0.5),
    p99: percentile(lateness, 0.99),
    max: lateness.at(-1) ?? 0,
    engineMsPerS: busy / callSeconds,
    processMsPerS: cpu / callSeconds,
    doublesMsPerS: (far.activeMs - far0.activeMs) / callSeconds,
    memoryPerCallMb: (rssPeak - rss0) / n / 1e6,
    doublesDelayP99: far.delayP99Ms,
    doublesDelayMax: far.delayMaxMs,
    ok: outcomes.filter((o) => o.ok).length,
    onScript: outcomes.filter(onScript).length,
    latencyCalls: errors.length,
    latencyErrMean: sum(errors) / Math.max(1, errors.length),
    latencyErrMax: errors.length ? Math.max(...errors) : 0,
    callS: callSeconds / n,
    wallS: wallMs / 1000,
  };
};
type Step = Awaited<ReturnType<typeof runStep>>;

/**
 * Voice calls one instance sustains in real time: N = 1, 2, 4 … 64 concurrent calls of the real
 * engine (`runVoiceCall`: Media Stream client, 20 ms caller frame pacer, agent-side VAD, stereo
 * recording, measures) against one voice agent double with a fixed latency. Per step: the caller
 * frames' pacing jitter (p50/p99/max lateness of every tick of every call) beside the same pacer
 * ticking alone in the same run, the engine thread's CPU per second of call audio, and how far
 * each call's measured agent latency (p50) is from the double's configured one. The agent double
 * and the persona's speech provider run in a child process, as the far side of a real call runs
 * on other machines, so their work is neither the engine's jitter nor its CPU; the engine
 * process's CPU (its event loop and its audio worker thread) and memory are reported too. Stops after two steps in a row over the jitter limit, or to stay
 * within the time budget.
 */
export const voiceBench = async (): Promise<Record<string, number>> => {
  const benchStart = performance.now();
  const doubles = await startDoubles();
  // the persona's speech, synthesised (and remembered for the agent's ears) before any step, and
  // the audio worker started and the ambience generated, as a server that has run calls has them
  for (const text of SCRIPT) await doubles.ask({ kind: 'speak', text });
  await audioWorker.run({ kind: 'resample', pcm: new Int16Array(480), fromRate: 24_000, sampleRate: 8_000 });
  await ambienceFor(1);
  const results: Record<string, number> = {};
  const steps: Step[] = [];
  let stopped: number = STOPPED.none;
  const over = (s: Step | undefined) => s !== undefined && s.p99 > JITTER_LIMIT_MS;
  try {
    for (const n of STEPS) {
      const last = steps.at(-1);
      if (last && performance.now() - benchStart + last.wallS * 1000 > BUDGET_MS) {
        stopped = STOPPED.budget;
        break;
      }
      const step = await runStep(n, doubles);
      steps.push(step);
      if (steps.length === 1) {
        // the baseline: the pacer alone, as long as a call of the first step
        const lone = await lonePacer(step.callS * 1000);
        Object.assign(results, {
          baselineP50: percentile(lone, 0.5),
          baselineP99: percentile(lone, 0.99),
          baselineMax: lone.at(-1) ?? 0,
          baselineS: (lone.length * 20) / 1000,
        });
      }
      if (over(step) && over(steps.at(-2))) {
        stopped = STOPPED.overTwice;
        break;
      }
      if (step.wallS > SLOW_STEP * steps[0]!.wallS && n !== STEPS.at(-1)) {
        stopped = STOPPED.slowStep;
        break;
      }
    }
  } finally {
    await doubles.close();
  }
  for (const [i, step] of steps.entries()) {
    for (const [key, value] of Object.entries(step)) results[`${i}.${key}`] = value;
  }
  const firstOver = steps.find(over);
  const upToFirstOver = firstOver ? steps.slice(0, steps.indexOf(firstOver)) : steps;
  return {
    ...results,
    steps: steps.length,
    stopped,
    sustained: upToFirstOver.at(-1)?.n ?? 0,
    largestPassing: steps.filter((s) => !over(s)).at(-1)?.n ?? 0,
    firstOver: firstOver?.n ?? 0,
    seconds: (performance.now() - benchStart) / 1000,
  };
};

/** The bench's settings, for its report. */
export const VOICE_SETTINGS = {
  steps: STEPS,
  jitterLimitMs: JITTER_LIMIT_MS,
  latencyMs: LATENCY_MS,
  callerTurns: SCRIPT.length,
  staggerMs: STAGGER_MS,
  ...SETUP,
  stopped: STOPPED,
  ambience: AMBIENCE ?? null,
};
