import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import {
  type Api,
  call,
  childOn,
  INGEST_ROWS,
  median,
  openTarget,
  peakRss,
  ROUNDS,
  ROW_IDS_ROWS,
  setUp,
  type Target,
  timed,
  upload,
  writeFiles,
} from './call-imports-setup.js';

/**
 * Call imports against the database's own floor, in one process on the same database:
 * - ingest: POST a generated 100k-row CSV (time, peak RSS of the process) vs COPY of the same rows
 *   (psql `\copy` on Postgres; PGlite's `COPY FROM '/dev/blob'` on PGlite);
 * - row-ids: GET /row-ids of a 1M-row import (until the last byte) vs `COPY (select id ... order by
 *   source_row, id) TO STDOUT` through the server's own database connection;
 * - queueing: POST /transcribe of 100k rows vs one raw UPDATE of the same rows.
 * Postgres is BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when it answers, else
 * PGlite (forced with BENCH_PGLITE=1).
 */

/**
 * Uploads the manifest. On Postgres a separate server process (the CLI) takes the upload, so the
 * peak RSS is the server's alone; on PGlite the database lives in this process, which is measured.
 */
const timedUpload = async (target: Target, api: Api, file: string, dir: string) => {
  const child = target.url ? await childOn(join(dir, 'child'), target.url) : undefined;
  try {
    let imported = { id: '', total_rows: 0 };
    const send = async () => {
      imported = await upload(child ? { ...api, url: child.url } : api, file);
    };
    const measured = await peakRss(() => timed(send), child?.pid);
    return {
      imported,
      ingestMs: measured.result,
      peakRssMb: measured.peakMb,
      rssBeforeMb: measured.beforeMb,
    };
  } finally {
    await child?.stop();
  }
};

const ingest = async (target: Target, api: Api, db: Knex, dir: string) => {
  writeFileSync(join(dir, 'header.csv'), 'conversation_id,agent\ncopy-target,Ava\n');
  const copyTarget = await upload(api, join(dir, 'header.csv'));
  const files = await writeFiles(dir, copyTarget.id);
  const { imported, ...measured } = await timedUpload(target, api, files.manifest, dir);
  const copyMs = await timed(() => target.copy(files.rows));
  const [counted] = await db('call_import_rows').where('call_import_id', copyTarget.id).count({ n: '*' });
  if (Number(counted?.n) !== INGEST_ROWS + 1) throw new Error(`COPY loaded ${counted?.n} rows`);
  if (imported.total_rows !== INGEST_ROWS) throw new Error(`ingest kept ${imported.total_rows} rows`);
  const csvMb = statSync(files.manifest).size / 1024 / 1024;
  return { importId: imported.id, ...measured, copyMs, csvMb, separateProcess: target.url ? 1 : 0 };
};

const rowIds = async (target: Target, api: Api, db: Knex, dir: string) => {
  writeFileSync(join(dir, 'one.csv'), 'conversation_id,agent\nbulk-0,Ava\n');
  const { id } = await upload(api, join(dir, 'one.csv'));
  await db.raw(
    `insert into call_import_rows (call_import_id, conversation_id, source_row, parameters)
     select ?::uuid, 'bulk-' || g, g + 1, '{}'::jsonb from generate_series(1, ?) g`,
    [id, ROW_IDS_ROWS - 1],
  );
  await db.raw('vacuum analyze call_import_rows');
  // the floor: the same ids in the same order as text, through the server's own connection,
  // without a row object per id (the endpoint's technique, and then some)
  const query = `select id from call_import_rows where call_import_id = '${id}' order by source_row, id`;
  const raw = async () => {
    const lines = await target.copyOut(query);
    if (lines !== ROW_IDS_ROWS) throw new Error(`COPY TO STDOUT sent ${lines} ids`);
  };
  const endpoint = () =>
    call(api, 'GET', `/api/v1/call-imports/${id}/row-ids`).then((res) => res.arrayBuffer());
  const [subject, baseline] = [[] as number[], [] as number[]];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(await timed(raw));
    subject.push(await timed(endpoint));
  }
  const body = JSON.parse(Buffer.from(await endpoint()).toString());
  if (body.total !== ROW_IDS_ROWS) throw new Error(`row-ids answered ${body.total} ids`);
  return { rowIdsMs: median(subject), copyOutMs: median(baseline) };
};

const queueing = async (api: Api, db: Knex, importId: string) => {
  const reset = async () => {
    await db('call_import_rows')
      .where('call_import_id', importId)
      .update({ diarised_transcript_status: null, diarisation_id: null });
    await db.raw('vacuum call_import_rows');
  };
  // the same state change the endpoint makes, as one statement
  const update = () =>
    db.raw(
      `update call_import_rows
          set diarised_transcript_status = 'pending', diarisation_id = ?::uuid, queued_at = now(),
              attempts = 0, lease_owner = null, lease_expires_at = null, diarised_transcript = null,
              diarised_transcript_error = null, updated_at = now()
        where call_import_id = ? and diarised_transcript_status is null`,
      [randomUUID(), importId],
    );
  const transcribe = () =>
    call(api, 'POST', `/api/v1/call-imports/${importId}/transcribe`, { mode: 'llm_only' });
  const [subject, baseline] = [[] as number[], [] as number[]];
  for (let round = 0; round < ROUNDS; round++) {
    await reset();
    baseline.push(await timed(update));
    await reset();
    subject.push(
      await timed(async () => {
        const queued = (await (await transcribe()).json()).queued;
        if (queued !== INGEST_ROWS) throw new Error(`transcribe queued ${queued} rows`);
      }),
    );
  }
  return { queueMs: median(subject), rawUpdateMs: median(baseline) };
};

/** Runs the three comparisons; times in ms (medians of alternating rounds for row-ids and queueing). */
export const callImportsBench = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'voice-eval-bench-imports-'));
  const target = await openTarget(dir);
  try {
    const { server: http, url } = await target.server.listen(0);
    // the bench pauses between requests (resets, VACUUM) longer than the default 5 s keep-alive
    http.keepAliveTimeout = 600_000;
    const api = await setUp(url.replace('localhost', '127.0.0.1'));
    const db = target.server.deps.db;
    const ingested = await ingest(target, api, db, dir);
    const { importId, ...ingestFigures } = ingested;
    const queued = await queueing(api, db, importId);
    const ids = await rowIds(target, api, db, dir);
    return {
      postgres: target.kind === 'postgres' ? 1 : 0,
      ...ingestFigures,
      ingestRatio: ingested.ingestMs / ingested.copyMs,
      ...ids,
      rowIdsRatio: ids.rowIdsMs / ids.copyOutMs,
      ...queued,
      queueRatio: queued.queueMs / queued.rawUpdateMs,
    };
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
