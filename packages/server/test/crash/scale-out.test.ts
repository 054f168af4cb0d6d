import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { silentWav } from '../doubles/recordings.js';
import { type S3Double, startS3Double } from '../doubles/s3.js';
import { callChild, crashWorld, signUpOnChild } from './child-server.js';

/**
 * Scale-out end to end: two server processes, each with its own data folder, on one Postgres and
 * one S3 bucket (a loopback s3rver). Recordings uploaded to one instance land in the bucket;
 * both instances transcribe and evaluate the import, reading the recordings from the bucket, and
 * every row is worked on once: one speech-to-text call, one diarisation call and one judge call
 * per row, counted at the loopback provider doubles. PGlite cannot be shared between processes,
 * so this runs on Postgres only (CI's Postgres pass).
 */

const ROWS = 30;
let s3: S3Double;
let stt: OpenAiDouble;
let llm: JudgeDouble;

/** The conversation id of each uploaded recording, by the hash of its bytes (what the STT double hears). */
const nameOfAudio = new Map<string, string>();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A diarisation call's transcript is what speech to text returned: exactly `row=<name>`. */
const isDiarisation = (transcript: string) => /^row=\S+$/.test(transcript);

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'two instances on one Postgres and one S3 bucket (Postgres only: PGlite cannot be shared between processes)',
  () => {
    beforeAll(async () => {
      s3 = await startS3Double();
      stt = await startOpenAiDouble({
        auth: { header: 'authorization', value: 'Bearer sk-stt' },
        latencyMs: 60,
        transcribe: (audio) => `row=${nameOfAudio.get(sha(audio)) ?? 'unknown'}`,
      });
      llm = await startJudgeDouble({
        latencyMs: 60,
        // diarisation calls get the turns of the call, the row's tag kept in the agent's words
        override: (call) =>
          isDiarisation(call.transcript)
            ? {
                status: 200,
                body: {
                  id: 'chatcmpl-diarise',
                  object: 'chat.completion',
                  model: 'judge-model',
                  choices: [
                    {
                      index: 0,
                      finish_reason: 'stop',
                      message: {
                        role: 'assistant',
                        content: JSON.stringify({
                          turns: [
                            { speaker: 'agent', text: `Hello, you reached ${call.transcript} support.` },
                            { speaker: 'user', text: 'Hi, I need help.' },
                          ],
                        }),
                      },
                    },
                  ],
                  usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
                },
              }
            : undefined,
      });
    });
    afterAll(async () => {
      await Promise.all([stt?.close(), llm?.close(), s3?.close()]);
    });
    // each instance has a data folder of its own: they share only the database and the bucket
    const world = crashWorld('scale-out', { folderPerServer: true });
    const start = () =>
      world.start({
        VOICE_EVAL_BLOB_STORE: 's3',
        VOICE_EVAL_S3_BUCKET: s3.bucket,
        VOICE_EVAL_S3_PREFIX: 'scale-out',
        VOICE_EVAL_S3_ENDPOINT: s3.endpoint,
        VOICE_EVAL_S3_FORCE_PATH_STYLE: 'true',
        ...s3.env,
        VOICE_EVAL_LLM_BASE_URL: llm.url,
        VOICE_EVAL_LLM_MODEL: 'judge-model',
        VOICE_EVAL_STT_BASE_URL: stt.url,
        VOICE_EVAL_STT_API_KEY: 'sk-stt',
        VOICE_EVAL_STT_MODEL: 'whisper-1',
        VOICE_EVAL_WORKER_CONCURRENCY: '3',
        VOICE_EVAL_AT_CAPACITY_BACKOFF_SECONDS: '1',
      });

    it('an import uploaded to one is transcribed and evaluated by both, every row once', async () => {
      const [a, b] = [await start(), await start()];
      const { token } = await signUpOnChild(a, 'scale-out');
      const schema = await callChild(a, 'POST', '/api/v1/call-import-schemas', {
        token,
        body: { name: 'Calls', parameters: [{ name: 'conversation_id', type: 'conversation_id' }] },
      });

      // recordings uploaded to A go to the bucket (B's data folder never sees them)
      const names = Array.from({ length: ROWS }, (_, i) => `call-${i + 1}`);
      const form = new FormData();
      form.append('schema_id', schema.id);
      for (const [i, name] of names.entries()) {
        const wav = silentWav(400 + i, i + 1);
        nameOfAudio.set(sha(wav), name);
        form.append('files', new File([new Uint8Array(wav)], `${name}.wav`, { type: 'audio/wav' }));
      }
      const imported = await callChild(a, 'POST', '/api/v1/call-imports', { token, form, expect: 201 });
      expect(imported).toMatchObject({ status: 'completed', total_rows: ROWS });

      // transcription requested through B: both instances claim rows, watched through their leases
      const diarisers = new Set<string>();
      const watch = setInterval(() => {
        world
          .db('call_import_rows')
          .where('call_import_id', imported.id)
          .whereNotNull('lease_owner')
          .pluck('lease_owner')
          .then(
            (owners: string[]) => {
              for (const owner of owners) diarisers.add(owner.split(':')[0]!);
            },
            () => undefined,
          );
      }, 20);
      try {
        await callChild(b, 'POST', `/api/v1/call-imports/${imported.id}/transcribe`, {
          token,
          body: { stt_provider: 'default', stt_model: 'whisper-1' },
          expect: 202,
        });
        await expect
          .poll(
            async () =>
              (await callChild(a, 'GET', `/api/v1/call-imports/${imported.id}?row_limit=1000`, { token }))
                .completed_rows,
            { timeout: 120_000, interval: 100 },
          )
          .toBe(ROWS);
      } finally {
        clearInterval(watch);
      }
      expect(diarisers.size).toBe(2);
      const detail = await callChild(b, 'GET', `/api/v1/call-imports/${imported.id}?row_limit=1000`, {
        token,
      });
      // each row was transcribed from its own recording, read from the bucket
      for (const row of detail.rows) {
        expect(row.diarised_transcript_status).toBe('completed');
        expect(row.diarised_transcript[0].text).toBe(
          `Hello, you reached row=${row.conversation_id} support.`,
        );
      }

      // evaluation started on A, scored by both
      const metric = await callChild(a, 'POST', '/api/v1/metrics', {
        token,
        body: { name: 'Greets', metric_type: 'boolean' },
      });
      const evaluation = await callChild(a, 'POST', '/api/v1/evaluations', {
        token,
        body: { call_import_id: imported.id, metric_ids: [metric.id] },
        expect: 202,
      });
      await expect
        .poll(
          async () => (await callChild(b, 'GET', `/api/v1/evaluations/${evaluation.id}`, { token })).status,
          { timeout: 120_000, interval: 100 },
        )
        .toBe('completed');
      const done = await callChild(b, 'GET', `/api/v1/evaluations/${evaluation.id}`, { token });
      expect(done).toMatchObject({ total_rows: ROWS, completed_rows: ROWS, failed_rows: 0 });
      const dispatches = await world.db('evaluation_dispatches').where('evaluation_id', evaluation.id);
      expect(new Set(dispatches.map((d) => d.instance_id as string)).size).toBe(2);
      expect(dispatches).toHaveLength(ROWS);

      // every row once at each provider: one STT call, one diarisation call, one judge call
      const count = (keys: string[]) => {
        const counts = new Map<string, number>();
        for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
        return counts;
      };
      const sttCalls = count(
        stt.requests
          .filter((r) => r.path === '/v1/audio/transcriptions')
          .map((r) => r.multipart?.file?.name ?? ''),
      );
      const diariseCalls = count(
        llm.calls.filter((c) => isDiarisation(c.transcript)).map((c) => c.tag ?? ''),
      );
      const judgeCalls = count(llm.calls.filter((c) => !isDiarisation(c.transcript)).map((c) => c.tag ?? ''));
      const once = new Map(names.map((n) => [n, 1]));
      expect(sttCalls).toEqual(new Map(names.map((n) => [`${n}.wav`, 1])));
      expect(diariseCalls).toEqual(once);
      expect(judgeCalls).toEqual(once);
    }, 300_000);
  },
);
