import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CallImport, CallImportRowIdsSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  callRows,
  createSchema,
  createTag,
  csvPart,
  importCsv,
  upload,
} from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import * as rows from './row-repo.js';

let h: Harness;
let schemaId: string;
let audioSchemaId: string;
let tagA: string;
let tagB: string;
let imports: Record<'first' | 'second' | 'third' | 'bare', CallImport>;
let audio: CallImport;

const list = async (query: string) => {
  const reply = await h.request('GET', `/api/v1/call-imports${query}`, { headers: await h.as('READER') });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const ids = (page: { items: CallImport[] }) => page.items.map((i) => i.id);

const wav = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVEfmt '), Buffer.alloc(40)]);

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
  schemaId = await createSchema(h, h);
  audioSchemaId = await createSchema(h, h, [
    { name: 'conversation_id', type: 'conversation_id', is_required: true },
    { name: 'recording', type: 'recording_url', is_required: true },
  ]);
  [tagA, tagB] = [await createTag(h, h, 'alpha'), await createTag(h, h, 'beta')];
  // the other ways a form may send `tag_ids`: a JSON array, one bare id
  const uploadCsv = async (fields: Record<string, string>): Promise<CallImport> => {
    const reply = await upload(h, await h.as('OWNER'), { schema_id: schemaId, ...fields }, [
      csvPart(callRows(2)),
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body;
  };
  imports = {
    first: await importCsv(h, h, schemaId, callRows(2), { dataset: 'Sales', tag_ids: [tagA, tagB] }),
    second: await uploadCsv({ dataset: 'sales', tag_ids: JSON.stringify([tagA]) }),
    third: await uploadCsv({ dataset: 'Support', tag_ids: tagB }),
    bare: await importCsv(h, h, schemaId, callRows(2)),
  };
  const files = [
    { field: 'files' as const, name: 'call-a.wav', bytes: wav, type: 'audio/wav' },
    { field: 'files' as const, name: 'notes.txt', bytes: 'not audio' },
    { field: 'files' as const, name: 'call-a.wav', bytes: wav },
    { field: 'files' as const, name: 'call-b.wav', bytes: wav },
  ];
  const reply = await upload(
    h,
    await h.as('MEMBER'),
    { schema_id: audioSchemaId, dataset: 'Recorded' },
    files,
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  audio = reply.body;
});

describe('POST /api/v1/call-imports (audio files)', () => {
  it('makes one row per recording, named by file, skipping non-audio and repeated names', async () => {
    expect(audio).toMatchObject({
      status: 'completed',
      source_format: 'audio',
      original_filename: 'call-a.wav',
      total_rows: 2,
      available_sheets: [],
      source_row_skips: [
        { source_row: 2, reason: 'invalid_recording', message: expect.any(String) },
        { source_row: 3, reason: 'duplicate_conversation_id', message: expect.any(String) },
      ],
    });
    const detail = await h.request('GET', `/api/v1/call-imports/${audio.id}`, {
      headers: await h.as('READER'),
    });
    expect(detail.body.rows.map((r: { conversation_id: string }) => r.conversation_id)).toEqual([
      'call-a',
      'call-b',
    ]);
    expect(detail.body.rows[0]).toMatchObject({ has_recording: true, recording_url: null, source_row: 1 });
    expect(await h.server.deps.storage.get(detail.body.rows[0].recording_storage_key)).toEqual(wav);
  });

  it('is 415 when no file is audio, and 422 when the schema requires what recordings cannot carry', async () => {
    const headers = await h.as('MEMBER');
    const text = [{ field: 'files' as const, name: 'a.wav', bytes: 'plain text' }];
    expectProblem(
      await upload(h, headers, { schema_id: audioSchemaId }, text),
      415,
      'unsupported_media_type',
    );
    const video = readFileSync(join(import.meta.dirname, '../../../test/fixtures/audio/vp9-opus-video.mp4'));
    const videoFile = [{ field: 'files' as const, name: 'call.m4a', bytes: video }];
    expectProblem(
      await upload(h, headers, { schema_id: audioSchemaId }, videoFile),
      415,
      'unsupported_media_type',
    );
    const files = [{ field: 'files' as const, name: 'a.wav', bytes: wav }];
    const reply = await upload(h, headers, { schema_id: schemaId }, files);
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors).toEqual([{ path: 'body.schema_id', message: '"agent" is required' }]);
  });
});

describe('GET /api/v1/call-imports', () => {
  it('lists the workspace imports newest first with total and page fields', async () => {
    const page = await list('');
    expect(ids(page)).toEqual([
      audio.id,
      imports.bare.id,
      imports.third.id,
      imports.second.id,
      imports.first.id,
    ]);
    expect(page).toMatchObject({ total: 5, page: 1, page_size: 20 });
    const second = await list('?page=2&page_size=2');
    expect(ids(second)).toEqual([imports.third.id, imports.second.id]);
    expect(second).toMatchObject({ total: 5, page: 2, page_size: 2 });
  });

  it('filters by dataset case-insensitively, and `none` selects imports without one', async () => {
    expect(ids(await list('?dataset=SALES'))).toEqual([imports.second.id, imports.first.id]);
    expect(ids(await list('?dataset=none'))).toEqual([imports.bare.id]);
    expect(ids(await list('?dataset=Sal'))).toEqual([]);
  });

  it('filters by tags, all of them, in every query form', async () => {
    expect(ids(await list(`?tag_id=${tagA}`))).toEqual([imports.second.id, imports.first.id]);
    expect(ids(await list(`?tag_id=${tagA}&tag_id=${tagB}`))).toEqual([imports.first.id]);
    expect(ids(await list(`?tag_id[0]=${tagB}&tag_id[1]=${tagA}`))).toEqual([imports.first.id]);
    expect(ids(await list(`?tag_id=${crypto.randomUUID()}`))).toEqual([]);
    const first = (await list(`?tag_id=${tagA}&tag_id=${tagB}`)).items[0];
    expect(first.tags.map((t: { name: string }) => t.name)).toEqual(['alpha', 'beta']);
  });

  it('filters by source format and status', async () => {
    expect(ids(await list('?source_format=audio'))).toEqual([audio.id]);
    expect(ids(await list('?source_format=non_audio'))).toHaveLength(4);
    expect(ids(await list('?status=completed'))).toHaveLength(5);
    expect(ids(await list('?status=failed'))).toEqual([]);
  });

  it.each([
    '?page=0',
    '?page_size=101',
    '?page_size=0',
    '?source_format=video',
    '?status=done',
    '?tag_id=nope',
  ])('rejects %s with 422', async (query) => {
    const reply = await h.request('GET', `/api/v1/call-imports${query}`, { headers: await h.as('READER') });
    expectProblem(reply, 422, 'validation_failed');
  });

  it('never shows other workspaces or organizations', async () => {
    const other = await h.createTenant();
    await importCsv(h, other, await createSchema(h, other), callRows(1));
    const ws = await h.request('POST', '/api/v1/workspaces', {
      headers: await h.as('OWNER'),
      body: { name: 'Second' },
    });
    const inWorkspace = { ...(await h.as('OWNER')), 'x-workspace-id': ws.body.id };
    const empty = await h.request('GET', '/api/v1/call-imports', { headers: inWorkspace });
    expect(empty.body).toMatchObject({ items: [], total: 0 });
    expect((await list('')).total).toBe(5);
  });
});

describe('GET /api/v1/call-imports/:id and /row-ids', () => {
  let big: CallImport;
  beforeAll(async () => {
    const rows = callRows(5_100, (i) => ({ transcript: i % 2 ? 'hello' : '' }), 'Row');
    rows.push(['odd_100%', 'Ava', '', '']);
    big = await importCsv(h, h, schemaId, rows);
    await h
      .db('call_import_rows')
      .where({ call_import_id: big.id, source_row: 3 })
      .update({ diarised_transcript_status: 'failed' });
    await h
      .db('call_import_rows')
      .where({ call_import_id: big.id, source_row: 4 })
      .update({ diarised_transcript_status: 'completed' });
  });
  const get = async (id: string, query = '') =>
    h.request('GET', `/api/v1/call-imports/${id}${query}`, { headers: await h.as('READER') });

  it('returns a window of rows in source order (default 100, at most 5000) and the matching total', async () => {
    const detail = (await get(big.id)).body;
    expect(detail).toMatchObject({ id: big.id, total_rows: 5_101, rows_total: 5_101 });
    expect(detail.rows).toHaveLength(100);
    expect(detail.rows[0].conversation_id).toBe('Row-1');
    const window = (await get(big.id, '?row_limit=5000&row_offset=5000')).body;
    expect(window.rows.map((r: { source_row: number }) => r.source_row)).toEqual(
      Array.from({ length: 101 }, (_, i) => 5_001 + i),
    );
    expectProblem(await get(big.id, '?row_limit=5001'), 422, 'validation_failed');
    expectProblem(await get(big.id, '?row_limit=0'), 422, 'validation_failed');
  });

  it('filters rows by a case-insensitive conversation id substring (wildcards literal) and by status', async () => {
    const q = (await get(big.id, '?q=row-51&row_limit=5000')).body;
    expect(q.rows_total).toBe(12);
    expect(q.rows.every((r: { conversation_id: string }) => r.conversation_id.startsWith('Row-51'))).toBe(
      true,
    );
    expect(
      (await get(big.id, '?q=100%25')).body.rows.map((r: { conversation_id: string }) => r.conversation_id),
    ).toEqual(['odd_100%']);
    expect((await get(big.id, '?q=_')).body.rows_total).toBe(1);
    const failed = (await get(big.id, '?diarised_status=failed')).body;
    expect(failed.rows.map((r: { source_row: number }) => r.source_row)).toEqual([3]);
    expectProblem(await get(big.id, '?diarised_status=done'), 422, 'validation_failed');
  });

  it('lists every matching row id without the row-limit cap, with the same filters', async () => {
    const reply = await get(big.id, '/row-ids');
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // the document is written by the database and streamed: check it against the contract here
    const all = CallImportRowIdsSchema.parse(reply.body);
    expect(all.total).toBe(5_101);
    expect(all.ids).toHaveLength(5_101);
    const expected = await h
      .db('call_import_rows')
      .where('call_import_id', big.id)
      .orderBy('source_row')
      .pluck('id');
    expect(all.ids).toEqual(expected);
    const filtered = (await get(big.id, '/row-ids?q=ROW-51&diarised_status=completed')).body;
    expect(filtered).toEqual({ ids: [], total: 0 });
    const completed = (await get(big.id, '/row-ids?diarised_status=completed')).body;
    expect(completed).toEqual({ ids: [expected[3]], total: 1 });
    expect((await get(big.id, '/row-ids?q=row-51')).body.total).toBe(12);
  });

  it('writes the row-ids document in chunks that add up to the whole, at any chunk size', async () => {
    const expected = await h
      .db('call_import_rows')
      .where('call_import_id', big.id)
      .orderBy('source_row')
      .pluck('id');
    const read = async (filters: rows.RowFilters, chunkSize: number) => {
      let text = '';
      for await (const chunk of rows.rowIdsDocument(h.db, big.id, filters, chunkSize)) text += chunk;
      return JSON.parse(text);
    };
    for (const size of [97, 1_000, 5_100, 5_101, 50_000]) {
      expect(await read({}, size), `chunks of ${size}`).toEqual({ ids: expected, total: 5_101 });
    }
    // 12 matches in chunks of 4: the last query finds nothing more
    const matching = await read({ q: 'row-51' }, 12);
    expect(await read({ q: 'row-51' }, 4)).toEqual(matching);
    expect(matching.total).toBe(12);
    expect(await read({ diarised_status: 'completed' }, 2)).toEqual({ ids: [expected[3]], total: 1 });
    expect(await read({ q: 'nothing like this' }, 2)).toEqual({ ids: [], total: 0 });
  });

  // a failure after the first byte cuts the document short: http/json-stream.http.test.ts
  it('answers a problem, not a 200 cut short, when the first query fails', async () => {
    const headers = await h.as('READER');
    await h.db.schema.renameTable('call_import_rows', 'call_import_rows_hidden');
    try {
      const res = await fetch(`${h.url}/api/v1/call-imports/${big.id}/row-ids`, { headers });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    } finally {
      await h.db.schema.renameTable('call_import_rows_hidden', 'call_import_rows');
    }
  });

  it('is 404 for an unknown import', async () => {
    expectProblem(await get(crypto.randomUUID()), 404, 'not_found');
    expectProblem(await get(crypto.randomUUID(), '/row-ids'), 404, 'not_found');
  });
});

describe('DELETE /api/v1/call-imports/:id', () => {
  it('deletes the import, its rows and stored files, and frees its schema', async () => {
    const headers = await h.as('MEMBER');
    const schema = await createSchema(h, h, [{ name: 'id', type: 'conversation_id', is_required: true }]);
    const files = [{ field: 'files' as const, name: 'x.wav', bytes: wav }];
    const created = (await upload(h, headers, { schema_id: schema }, files)).body;
    const key = (await h.db('call_import_rows').where('call_import_id', created.id).first())
      .recording_storage_key;
    const inUse = await h.request('DELETE', `/api/v1/call-import-schemas/${schema}`, {
      headers: await h.as('OWNER'),
    });
    expectProblem(inUse, 409, 'in_use');
    expect((await h.request('DELETE', `/api/v1/call-imports/${created.id}`, { headers })).status).toBe(204);
    expect(await h.server.deps.storage.exists(key)).toBe(false);
    expect(await h.db('call_import_rows').where('call_import_id', created.id).count({ n: '*' })).toEqual([
      { n: 0 },
    ]);
    expectProblem(
      await h.request('GET', `/api/v1/call-imports/${created.id}`, { headers }),
      404,
      'not_found',
    );
    expectProblem(
      await h.request('DELETE', `/api/v1/call-imports/${created.id}`, { headers }),
      404,
      'not_found',
    );
    const freed = await h.request('DELETE', `/api/v1/call-import-schemas/${schema}`, {
      headers: await h.as('OWNER'),
    });
    expect(freed.status).toBe(204);
  });

  it('removes the stored source of a manifest import', async () => {
    const created = await importCsv(h, h, schemaId, callRows(1));
    const headers = await h.as('MEMBER');
    expect(await h.server.deps.storage.exists(created.source_storage_key!)).toBe(true);
    expect((await h.request('DELETE', `/api/v1/call-imports/${created.id}`, { headers })).status).toBe(204);
    expect(await h.server.deps.storage.exists(created.source_storage_key!)).toBe(false);
  });
});
