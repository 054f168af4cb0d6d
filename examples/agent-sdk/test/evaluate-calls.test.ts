import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import { errorReply, type OpenAiDouble, startOpenAiDouble } from '@voice-eval/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateCalls } from '../src/evaluate-calls.js';
import { CALL_OUTCOME, ensureCallMetrics, IDENTITY_CHECK } from '../src/setup.js';
import { callsCsv, diarised, judged, serveRecordings } from './fixtures.js';

const LLM_KEY = 'sk-test-double';
let double: OpenAiDouble;
let recordings: Awaited<ReturnType<typeof serveRecordings>>;
let server: VoiceEvalServer;
let dataDir: string;
let client: VoiceEval;

/** A real server on a temp data dir (embedded PGlite) whose default LLM and STT is the double. */
beforeAll(async () => {
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: `Bearer ${LLM_KEY}` } });
  recordings = await serveRecordings();
  dataDir = await mkdtemp(join(tmpdir(), 'voice-eval-agent-sdk-'));
  server = createVoiceEvalServer({
    dataDir,
    logLevel: 'silent',
    // the recordings are served on loopback, which server-side fetches refuse unless allowed
    fetchAllowlist: ['127.0.0.1'],
    env: {
      VOICE_EVAL_LLM_BASE_URL: double.url,
      VOICE_EVAL_LLM_API_KEY: LLM_KEY,
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    },
  });
  const { url } = await server.listen(0);

  // What a user does once: sign up, then give the agent an API key.
  const session = await new VoiceEval({ baseUrl: url, logLevel: 'off' }).auth.signup({
    email: 'qa-lead@example.test',
    password: 'correct horse battery staple',
    organization_name: 'Acme Support',
  });
  const owner = new VoiceEval({ baseUrl: url, accessToken: session.access_token, logLevel: 'off' });
  const { key } = await owner.auth.generateKey({ name: 'QA agent' });
  client = new VoiceEval({ baseUrl: url, apiKey: key, logLevel: 'off' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([double?.close(), recordings?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const judgeCalls = () =>
  double.requests.filter(
    (r) =>
      (r.json as { response_format?: { json_schema?: { name?: string } } } | null)?.response_format
        ?.json_schema?.name === 'judge_scores',
  );

describe('evaluateCalls', { timeout: 120_000 }, () => {
  it('imports, transcribes and scores a CSV of calls, and summarises what was flagged', async () => {
    // The judge's replies name metric ids: set the metrics up first (evaluateCalls reuses them).
    const metrics = await ensureCallMetrics(client);
    expect(metrics.outcome.children.map((c) => c.name).sort()).toEqual([...CALL_OUTCOME.labels].sort());
    // Transcription of both recordings happens before any scoring, so the replies queue in order.
    double.enqueue(
      '/v1/audio/transcriptions',
      { json: { text: 'Hi, this is Ava. Can I have your account number? It is 42.' } },
      { json: { text: 'Hi, this is Ava. How can I help? My router is broken.' } },
    );
    double.enqueue(
      '/v1/chat/completions',
      diarised('Hi, this is Ava. Can I have your account number?', 'It is 42.'),
      diarised('Hi, this is Ava. How can I help?', 'My router is broken.'),
      // one reply per call; which call gets which does not change the summary
      judged(metrics, 'Resolved', true),
      judged(metrics, 'Not resolved', true),
      judged(metrics, 'Resolved', false),
      judged(metrics, 'Escalated', true),
    );
    const csv = callsCsv([
      { id: 'call-1', recording: recordings.url('call-1.wav') },
      { id: 'call-2', recording: recordings.url('call-2.wav') },
      { id: 'call-3', transcript: 'Agent: Thanks for calling. Caller: I want to cancel my plan.' },
      { id: 'call-4', transcript: 'Agent: Let me transfer you. Caller: Fine.' },
    ]);

    const summary = await evaluateCalls(client, {
      csv,
      dataset: 'week-1',
      pollIntervalMs: 100,
      timeoutMs: 60_000,
    });

    expect(summary).toMatchObject({
      status: 'completed',
      calls: 4,
      skippedSourceRows: [],
      transcribed: 2,
      transcriptionFailures: [],
      unscored: 0,
      scored: 4,
      scoringFailures: [],
      flaggedByMetric: { [CALL_OUTCOME.name]: 2, [IDENTITY_CHECK.name]: 1 },
    });
    const failures = summary.flagged.flatMap((f) => f.failures.map((x) => `${x.metric}=${x.value}`));
    expect(failures.sort()).toEqual([
      `${CALL_OUTCOME.name}=Escalated`,
      `${CALL_OUTCOME.name}=Not resolved`,
      `${IDENTITY_CHECK.name}=false`,
    ]);
    // the outcome metric captures rationales, the boolean does not
    const outcome = summary.flagged.flatMap((f) => f.failures).find((x) => x.metric === CALL_OUTCOME.name);
    expect(outcome?.rationale).toMatch(/^The call ended /);

    // The server sent both recordings to speech to text, and every transcript to the judge.
    const uploads = double.requests.filter((r) => r.path === '/v1/audio/transcriptions');
    expect(uploads.map((r) => r.multipart?.file?.name).sort()).toEqual(['call-1.wav', 'call-2.wav']);
    const prompts = judgeCalls().map((r) => JSON.stringify(r.json));
    expect(prompts).toHaveLength(4);
    expect(prompts.some((p) => p.includes('My router is broken.'))).toBe(true);
    expect(prompts.some((p) => p.includes('I want to cancel my plan.'))).toBe(true);
    const stored = await client.callImports.get(summary.callImportId);
    expect(stored).toMatchObject({ dataset: 'week-1', latest_evaluation_status: 'completed' });
  });

  it('runs again on the same metrics and schema, and reports calls it could not use', async () => {
    const before = await client.metrics.list({ page_size: 100 }).toArray({ limit: 100 });
    const metrics = await ensureCallMetrics(client);
    // one call is judged, the judge rejects the other
    double.enqueue(
      '/v1/chat/completions',
      judged(metrics, 'Resolved', true),
      errorReply(400, 'This model cannot read that transcript.'),
    );
    const csv = callsCsv([
      { id: 'call-5', transcript: 'Agent: Can I confirm your name? Caller: Sam.' },
      { id: 'call-6', recording: recordings.url('missing.mp3') },
      { id: 'call-7' },
      { id: 'call-5', transcript: 'a duplicate id' },
      { id: 'call-8', transcript: 'Agent: Goodbye. Caller: Bye.' },
    ]);

    const summary = await evaluateCalls(client, { csv, pollIntervalMs: 100, timeoutMs: 60_000 });

    expect(summary).toMatchObject({ status: 'completed', calls: 4, transcribed: 0, scored: 1, flagged: [] });
    expect(summary.skippedSourceRows).toEqual([
      expect.objectContaining({ source_row: 4, reason: 'duplicate_conversation_id' }),
    ]);
    expect(summary.transcriptionFailures).toEqual([
      { conversationId: 'call-6', message: expect.stringMatching(/could not be fetched/) },
    ]);
    // evaluations score the calls that have a transcript; the other two are left out
    expect(summary.unscored).toBe(2);
    expect(summary.scoringFailures).toEqual([
      { conversationId: expect.stringMatching(/^call-[58]$/), code: 'provider_error' },
    ]);
    const after = await client.metrics.list({ page_size: 100 }).toArray({ limit: 100 });
    expect(after.map((m) => m.id).sort()).toEqual(before.map((m) => m.id).sort());
    expect((await client.callImportSchemas.list()).total).toBe(1);
  });
});
