import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The host app has its own `pg` pool. Embedding voice-eval must not change how that pool reads
 * results: int8 and numeric stay strings, pg's defaults. On Postgres (TEST_DATABASE_URL), the
 * server and the host's pool share one server, in a database of this file's own.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const database = `host_app_${randomBytes(6).toString('hex')}`;
const databaseUrl = adminUrl
  ? Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString()
  : undefined;
let voiceEval: VoiceEvalServer;
let dataDir: string;

const onAdmin = async (sql: string) => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
};

beforeAll(async () => {
  if (databaseUrl) await onAdmin(`create database ${database}`);
  dataDir = await mkdtemp(join(tmpdir(), 'voice-eval-host-pg-'));
  voiceEval = createVoiceEvalServer({ dataDir, databaseUrl, logLevel: 'silent' });
  await voiceEval.start();
}, 120_000);
afterAll(async () => {
  await voiceEval?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) await onAdmin(`drop database if exists ${database} with (force)`);
});

describe("the host's own pg", { timeout: 60_000 }, () => {
  it('reads int8 and numeric as strings, as pg does, with the server embedded and serving', async () => {
    // the server's own connections read them as numbers
    const ours = await voiceEval.deps.db.raw(
      'select count(*) as organizations, 1.5::numeric as x from organizations',
    );
    expect(ours.rows[0]).toEqual({ organizations: expect.any(Number), x: 1.5 });
    expect(pg.types.getTypeParser(pg.types.builtins.INT8, 'text')('9007199254740993')).toBe(
      '9007199254740993',
    );
    expect(pg.types.getTypeParser(pg.types.builtins.NUMERIC, 'text')('1.50')).toBe('1.50');
    if (!databaseUrl) return;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      const { rows } = await pool.query(
        'select count(*) as organizations, 9007199254740993::int8 as big, 1.50::numeric as x from organizations',
      );
      expect(rows[0]).toEqual({
        organizations: expect.stringMatching(/^\d+$/),
        big: '9007199254740993',
        x: '1.50',
      });
    } finally {
      await pool.end();
    }
  });
});
