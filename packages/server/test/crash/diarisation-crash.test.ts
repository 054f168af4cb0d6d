import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { type RecordingsDouble, silentWav, startRecordingsDouble } from '../doubles/recordings.js';
import { toCsv } from '../factories/call-import-files.js';
import { type ChildServer, callChild, crashWorld, signUpOnChild } from './child-server.js';

/**
 * Crash safety of diarisation with real server processes: SIGKILL in the middle of transcribing,
 * restart, and every row still ends in one terminal state with one transcript; and, on Postgres,
 * two processes sharing one import never work on a row twice.
 */

const TURNS = [
  { speaker: 'agent', text: 'Hello, how can I help?' },
  { speaker: 'user', text: 'I would like a refund.' },
];
const ROWS = 24;

let openai: OpenAiDouble;
let recordings: RecordingsDouble;

/** Signs up, creates a schema and an import of `rows` recordings served by the double, and queues them. */
const seed = async (server: ChildServer, rows: number, prefix: string) => {
  const { token } = await signUpOnChild(server, 'crash');
  const schema = await callChild(server, 'POST', '/api/v1/call-import-schemas', {
    token,
    body: {
      name: 'Calls',
      parameters: [
        { name: 'conversation_id', type: 'conversation_id', is_required: true },
        { name: 'recording', type: 'recording_url' },
      ],
    },
  });
  const names = Array.from({ length: rows }, (_, i) => `${prefix}-${i + 1}`);
  for (const [i, name] of names.entries()) recordings.serve(`${name}.wav`, silentWav(200, i));
  const csv = toCsv([
    ['conversation_id', 'recording'],
    ...names.map((n) => [n, recordings.urlOf(`${n}.wav`)]),
  ]);
  const form = new FormData();
  form.append('schema_id', schema.id);
  form.append('file', new File([csv], 'calls.csv', { type: 'text/csv' }));
  const imported = await callChild(server, 'POST', '/api/v1/call-imports', { token, form, expect: 201 });
  openai.enqueue(
    '/v1/chat/completions',
    ...Array.from({ length: rows * 3 }, () => chatReply({ turns: TURNS })),
  );
  const queued = await callChild(server, 'POST', `/api/v1/call-imports/${imported.id}/transcribe`, {
    token,
    body: { stt_provider: 'default', stt_model: 'whisper-1' },
    expect: 202,
  });
  expect(queued).toMatchObject({ queued: rows });
  return { token, importId: imported.id as string, names };
};

const detailOf = (server: ChildServer, token: string, importId: string) =>
  callChild(server, 'GET', `/api/v1/call-imports/${importId}?row_limit=5000`, { token });

beforeAll(async () => {
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-crash' } });
  recordings = await startRecordingsDouble();
});
afterAll(async () => {
  await openai.close();
  await recordings.close();
});

// a fresh database and data folder per test; on PGlite the child owns its data, results come from the API
const world = crashWorld('crash', { perTest: true });
const start = () =>
  world.start({
    VOICE_EVAL_LLM_BASE_URL: openai.url,
    VOICE_EVAL_LLM_API_KEY: 'sk-crash',
    VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    VOICE_EVAL_STT_MODEL: 'whisper-1',
    VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
    VOICE_EVAL_DIARISATION_LEASE_MS: '1500',
    VOICE_EVAL_WORKER_CONCURRENCY: '4',
  });

describe('diarisation survives a crash', () => {
  it('after SIGKILL mid-transcription, a restarted server brings every row to one final transcript', async () => {
    openai.setLatency(250);
    const first = await start();
    const { token, importId, names } = await seed(first, ROWS, 'crash');
    await expect
      .poll(async () => (await detailOf(first, token, importId)).completed_rows, {
        timeout: 60_000,
        interval: 50,
      })
      .toBeGreaterThanOrEqual(2);
    // freeze the provider so rows are caught mid-work: claimed and leased, their call unanswered
    openai.hold();
    await expect.poll(() => openai.held, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(1);
    const before = await detailOf(first, token, importId);
    await first.kill();
    openai.release();
    expect(before.completed_rows).toBeLessThan(ROWS);
    // a row whose provider call is held cannot finish: at the kill it was leased and not done
    const midWork = before.rows.filter(
      (r: { diarised_transcript_status: string }) => r.diarised_transcript_status === 'running',
    );
    expect(midWork.length).toBeGreaterThanOrEqual(1);
    if (world.testDb) {
      // on Postgres the dead server's rows can be read as it left them
      const leased = await world
        .db('call_import_rows')
        .where({ call_import_id: importId, diarised_transcript_status: 'running' })
        .whereNotNull('lease_owner')
        .whereNull('diarised_transcript')
        .count({ n: '*' });
      expect(Number(leased[0]!.n)).toBeGreaterThanOrEqual(1);
    }

    const second = await start();
    await expect
      .poll(
        async () => {
          const d = await detailOf(second, token, importId);
          return d.completed_rows + d.failed_rows;
        },
        { timeout: 90_000, interval: 200 },
      )
      .toBe(ROWS);
    const after = await detailOf(second, token, importId);
    expect(after).toMatchObject({ completed_rows: ROWS, failed_rows: 0, total_rows: ROWS });
    for (const row of after.rows) {
      expect(row).toMatchObject({
        diarised_transcript_status: 'completed',
        diarised_transcript: TURNS,
        diarised_transcript_error: null,
      });
    }
    expect(after.rows.map((r: { conversation_id: string }) => r.conversation_id).sort()).toEqual(
      [...names].sort(),
    );
    // the rows cut off by the kill were fetched again: someone worked on them twice, never at once
    const fetched = names.map((n) => recordings.fetches(`${n}.wav`));
    expect(fetched.every((n) => n >= 1)).toBe(true);
    expect(names.every((n) => (recordings.maxInFlight.get(`${n}.wav`) ?? 0) <= 1)).toBe(true);
    openai.setLatency(0);
  }, 180_000);

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'two servers on one Postgres share an import without working on a row twice (Postgres only)',
    async () => {
      openai.setLatency(100);
      const [a, b] = [await start(), await start()];
      const instances = new Set<string>();
      const { token, importId, names } = await seed(a, 40, 'shared');
      const watch = setInterval(() => {
        world
          .db('call_import_rows')
          .where('call_import_id', importId)
          .whereNotNull('lease_owner')
          .pluck('lease_owner')
          .then(
            (owners: string[]) => {
              for (const owner of owners) instances.add(owner.split(':')[0]!);
            },
            () => undefined,
          );
      }, 25);
      try {
        await expect
          .poll(async () => (await detailOf(b, token, importId)).completed_rows, {
            timeout: 90_000,
            interval: 100,
          })
          .toBe(40);
      } finally {
        clearInterval(watch);
      }
      expect(instances.size).toBe(2);
      for (const name of names) {
        expect(recordings.fetches(`${name}.wav`)).toBe(1);
        expect(recordings.maxInFlight.get(`${name}.wav`)).toBe(1);
      }
      const stt = openai.requests.filter((r) => r.path === '/v1/audio/transcriptions');
      const perFile = new Map<string, number>();
      for (const r of stt) {
        const name = r.multipart?.file?.name ?? '';
        perFile.set(name, (perFile.get(name) ?? 0) + 1);
      }
      expect(names.every((n) => perFile.get(`${n}.wav`) === 1)).toBe(true);
      openai.setLatency(0);
    },
    180_000,
  );
});
