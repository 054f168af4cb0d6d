import {
  CallImportRowSchema,
  ProductionCallSchema,
  type SuiteRunCall,
  SuiteRunCallSchema,
  SuiteRunComparisonSchema,
  SuiteRunSchema,
} from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_SUITE_EXIT, runSuite } from '../../src/commands/run-suite.js';
import { fisherExactTwoSided } from '../../src/stats/index.js';
import { isSlowCall, type SlowShare } from '../../src/testing/slow-share.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import { decodeWav, encodeWav } from '../../src/voice/audio/index.js';
import { type RecordingsDouble, startRecordingsDouble } from '../doubles/recordings.js';
import { makeRunnableSuite } from '../factories/suite-runs.js';
import { createHarness, type Harness } from '../harness.js';
import { givenLatencies, startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';
import { expectSameMeasures, expectSameTimes } from '../voice-measures.js';

/**
 * The slow share of issue #32, end to end in real time over loopback: a voice agent that answers a
 * seeded share of calls slowly is caught by a latency metric on exactly those calls, compare calls
 * the drop from a fast run of the same suite a significant regression, `run-suite` fails its gate
 * (and passes it on the fast run), and a slow call's stereo recording, imported with the agent on
 * the right, gets the call's measures. The tests run in order, each on the runs before it.
 */

const FAST_MS = 600;
const SLOW_MS = 1800;
const THRESHOLD_MS = 1200;
// ten calls, half of them slow: exactly five (a run's calls are numbered, see isSlowCall), and five
// flagged of ten against none of ten is as few as Fisher's test puts under 0.05 (p = 0.0325)
const CALLS = 10;
const SLOW: SlowShare = { share: 0.5, latencyMs: SLOW_MS, seed: 32 };
const METRIC = `Answers within ${THRESHOLD_MS} ms`;

let h: Harness;
let doubles: VoiceDoubles;
let agent: VoiceAgentDouble;
let recordings: RecordingsDouble;
let suite: { id: string; agentId: string };
let fastRunId = '';
let slowRunId = '';

beforeAll(async () => {
  doubles = await startVoiceDoubles();
  recordings = await startRecordingsDouble();
  agent = await startVoiceAgentDouble({
    registry: doubles.registry,
    latencyMs: FAST_MS,
    hangUpAfterGoodbye: true,
    speechSpeed: 2,
  });
  // every call of a run at once: the job limit is 8 by default
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    simulationTurnTimeoutMs: 4000,
    jobLimit: CALLS,
    env: doubles.env,
  });
  const world = await makeRunnableSuite(h, h, {
    connection: { kind: 'twilio_media_stream', url: agent.url },
    // two caller turns: the answer to the first is measured in full (the goodbye's may be cut off)
    persona: { response_delay_ms: 100, max_turns: 2, allow_interruptions: false, tts_config: { speed: 1.5 } },
    scenario: () => ({ description: 'Book a checkup.', required_info: { name: 'Ada Lovelace' } }),
    suite: { default_runs_per_combination: CALLS },
    metrics: [
      {
        name: METRIC,
        metric_type: 'number',
        custom_config: {
          voice_measure: 'agent_latency_p95_ms',
          threshold: { operator: 'gt', value: THRESHOLD_MS },
        },
      },
    ],
  });
  suite = { id: world.suite.id, agentId: world.agent.id };
}, 60_000);
afterAll(async () => {
  await Promise.all([doubles.close(), agent.close(), recordings.close()]);
});

/** `run-suite --wait` in-process against the harness's server: its exit code, output and run. */
const runSuiteCli = async (args: string[]) => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const key = (await h.apiKey())['x-api-key'];
  const code = await runSuite([suite.id, ...args, '--wait', '--interval-ms', '250'], {
    env: { VOICE_EVAL_URL: h.url, VOICE_EVAL_API_KEY: key },
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
  });
  const runId = /started run ([0-9a-f-]{36})/.exec(stderr.join('\n'))?.[1];
  expect(runId, stderr.join('\n')).toBeDefined();
  return { code, out: stdout.join('\n'), runId: runId! };
};

const get = async (path: string) => {
  const reply = await h.request('GET', path, { headers: await h.as('READER') });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

/** The double's streams of a run's calls: their callSids are its conversation ids, `run-<id prefix>-NNNN`. */
const streamsOf = (runId: string) =>
  agent.streams.filter((s) => s.start?.callSid.startsWith(`run-${runId.slice(0, 8)}-`));

/** A run's calls, each with whether the latency metric flagged it and its import row's measures. */
const scoredCalls = async (runId: string) => {
  const run = SuiteRunSchema.parse(await get(`/api/v1/suite-runs/${runId}`));
  const calls = SuiteRunCallSchema.array().parse(
    (await get(`/api/v1/suite-runs/${runId}/calls?page_size=100`)).items,
  );
  const results = (await get(`/api/v1/evaluations/${run.evaluation_id}/rows?page_size=100`)).items;
  const flagged = new Map<string, boolean>(
    results.map((r: { conversation_id: string; results: Array<{ flagged: boolean }> }) => [
      r.conversation_id,
      r.results[0]!.flagged,
    ]),
  );
  const rows = CallImportRowSchema.array().parse(
    (await get(`/api/v1/call-imports/${run.call_import_id}?row_limit=100`)).rows,
  );
  return calls.map((call) => ({
    call,
    flagged: flagged.get(call.conversation_id),
    row: rows.find((r) => r.conversation_id === call.conversation_id)!,
  }));
};

/** Submits `call`'s recording at `url` (agent on channel 1) as a production call; its row once diarised. */
const importRecording = async (call: SuiteRunCall, url: string) => {
  const submitted = await h.request('POST', '/api/v1/production-calls', {
    headers: await h.as('MEMBER'),
    body: {
      agent_id: suite.agentId,
      external_call_id: call.conversation_id,
      recording: { url, agent_channel: 1 },
    },
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const production = ProductionCallSchema.parse(submitted.body.production_call);
  const path = `/api/v1/call-imports/${production.call_import_id}/rows/${production.call_import_row_id}`;
  await expect
    .poll(async () => (await get(path)).diarised_transcript_status, { timeout: 30_000, interval: 100 })
    .toMatch(/^(completed|failed)$/);
  const row = CallImportRowSchema.parse(await get(path));
  expect(row.diarised_transcript_error).toBeNull();
  return row;
};

describe('a voice agent slow in a seeded share of calls', () => {
  it('passes the gate with every call fast', async () => {
    const fast = await runSuiteCli(['--fail-under', '0.9']);
    fastRunId = fast.runId;
    expect(fast.code, fast.out).toBe(RUN_SUITE_EXIT.passed);
    expect(fast.out).toMatch(/Pass rate: 100\.0% \(threshold 90\.0%\)[\s\S]*Gate: passed/);
    expect(streamsOf(fastRunId).map((s) => s.latencyMs)).toEqual(Array(CALLS).fill(FAST_MS));
  }, 120_000);

  it('fails the gate against the fast run once a share of calls is slow, naming the metric', async () => {
    agent.setOptions({ slowShare: SLOW });
    const slow = await runSuiteCli(['--fail-under', '0.9', '--baseline', fastRunId]);
    slowRunId = slow.runId;
    expect(slow.code, slow.out).toBe(RUN_SUITE_EXIT.gateFailed);
    expect(slow.out).toContain(
      `Gate: FAILED: pass rate 50.0% is below 90.0%; significant regression on ${METRIC}`,
    );
  }, 120_000);

  it('flags exactly the calls the double answered slowly', async () => {
    // which calls were slow, from the double's own records: half of them, as the share says
    const streams = streamsOf(slowRunId);
    expect(streams).toHaveLength(CALLS);
    const slowSids = new Set(streams.filter((s) => s.latencyMs === SLOW_MS).map((s) => s.start!.callSid));
    expect(slowSids.size).toBe(CALLS / 2);
    for (const stream of streams) {
      const sid = stream.start!.callSid;
      expect(stream.latencyMs, sid).toBe(isSlowCall(sid, SLOW) ? SLOW_MS : FAST_MS);
    }
    // what the double gave, on its inbound audio: a busy machine delays its timers or the platform's
    // frames, which then come in a burst (seen: 560 ms given for 600), but every slow answer stays
    // far above the threshold and every fast one far below
    const given = new Map(streams.map((s) => [s.start!.callSid, givenLatencies(s)]));
    const report = JSON.stringify(Object.fromEntries(given));
    for (const [sid, latencies] of given) {
      expect(latencies.length, report).toBeGreaterThanOrEqual(1);
      if (slowSids.has(sid)) expect(Math.min(...latencies), report).toBeGreaterThan(THRESHOLD_MS);
      else expect(Math.max(...latencies), report).toBeLessThan(THRESHOLD_MS);
    }
    // the stream's callSid is the call's conversation id; each call is scored on its own audio
    const scored = await scoredCalls(slowRunId);
    expect(scored).toHaveLength(CALLS);
    for (const { call, flagged } of scored) {
      const why = `${call.conversation_id}: ${JSON.stringify(call.voice_measures)}, given ${JSON.stringify(given.get(call.conversation_id))}`;
      expect(flagged, why).toBe(slowSids.has(call.conversation_id));
      const p95 = call.voice_measures?.agent_latency_p95_ms ?? null;
      expect(p95 !== null && p95 > THRESHOLD_MS, why).toBe(flagged);
    }
    const run = SuiteRunSchema.parse(await get(`/api/v1/suite-runs/${slowRunId}`));
    expect(run.metric_summary).toMatchObject([
      { metric_name: METRIC, scored: CALLS, passed: CALLS / 2, flagged: CALLS / 2 },
    ]);
  });

  it('reports the drop from the fast run as a significant regression', async () => {
    const compared = SuiteRunComparisonSchema.parse(
      await get(`/api/v1/suite-runs/${slowRunId}/compare?baseline_run_id=${fastRunId}`),
    );
    // the server's test on the run's counts: five of ten passed against ten of ten
    const p = fisherExactTwoSided(CALLS / 2, CALLS / 2, CALLS, 0);
    expect(p).toBeLessThan(compared.significance_level);
    expect(compared).toMatchObject({ baseline_run_id: fastRunId, regressed: true, pass_rate: 0.5 });
    expect(compared.metrics).toMatchObject([
      {
        metric_name: METRIC,
        current: { scored: CALLS, passed: CALLS / 2, pass_rate: 0.5 },
        baseline: { scored: CALLS, passed: CALLS, pass_rate: 1 },
        delta: -0.5,
        p_value: p,
        significant: true,
        regression: true,
      },
    ]);
    const slowSids = streamsOf(slowRunId)
      .filter((s) => s.latencyMs === SLOW_MS)
      .map((s) => s.start!.callSid);
    expect(compared.combinations[0]!.regressed_calls.map((c) => c.conversation_id).sort()).toEqual(
      slowSids.sort(),
    );
  });

  it('measures a slow call’s recording, imported with the agent on the right, as the call', async () => {
    const scored = await scoredCalls(slowRunId);
    // every call's recording, measured again on its row (diarised by channel), times as the call's
    for (const { call, row } of [...(await scoredCalls(fastRunId)), ...scored]) {
      expectSameTimes(call.voice_measures!, row.voice_measures!, `row of ${call.conversation_id}`);
    }
    const { call, row } = scored.find((s) => s.flagged)!;
    const stored = row.recording_storage_key
      ? await h.server.deps.storage.get(row.recording_storage_key)
      : null;
    expect(stored, `the recording of ${call.conversation_id}`).toBeTruthy();
    const wav = decodeWav(new Uint8Array(stored as Uint8Array));
    recordings.serve(
      'slow-call.wav',
      encodeWav({ sampleRate: wav.sampleRate, channels: [wav.channels[1]!, wav.channels[0]!] }),
    );
    const imported = await importRecording(call, recordings.urlOf('slow-call.wav'));
    expectSameMeasures(call.voice_measures!, imported.voice_measures!, `import of ${call.conversation_id}`);
    expect(imported.voice_measures!.agent_latency_p95_ms).toBeGreaterThan(THRESHOLD_MS);
  }, 60_000);
});
