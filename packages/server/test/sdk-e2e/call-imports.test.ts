/** Server, contract and SDK agree on call imports: uploads, rows, filters, pagination, problems. */
import { randomUUID } from 'node:crypto';
import {
  ApiError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentWav } from '../doubles/recordings.js';
import { expectApiError, expectPagination } from './conformance.js';
import { importCalls, makeSchema, transcripts } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness({ workerConcurrency: 0 });
});

const csvFile = (text: string, filename = 'calls.csv') => ({
  data: new TextEncoder().encode(text),
  filename,
});

describe('call imports', () => {
  it('a CSV upload answers the completed import; get answers its rows in source order', async () => {
    const client = h.sdk();
    const created = await importCalls(client, [...transcripts(3), { id: 'call-1', transcript: 'again' }]);
    expect(created).toMatchObject({
      status: 'completed',
      source_format: 'csv',
      original_filename: 'calls.csv',
      total_rows: 3,
      source_row_skips: [{ source_row: 4, reason: 'duplicate_conversation_id', message: expect.any(String) }],
    });
    const detail = await client.callImports.get(created.id, { row_limit: 2 });
    expect(detail).toMatchObject({ id: created.id, rows_total: 3 });
    expect(detail.rows.map((r) => [r.source_row, r.conversation_id])).toEqual([
      [1, 'call-1'],
      [2, 'call-2'],
    ]);
    expect(detail.rows[0]?.source_transcript).toContain('row=call-1');
    const ids = await client.callImports.rowIds(created.id, { q: 'CALL-3' });
    expect(ids).toEqual({ ids: [expect.any(String)], total: 1 });
  });

  it('audio files make one row each, named by file', async () => {
    const client = h.sdk();
    const schema = await client.callImportSchemas.create({
      name: `Audio ${randomUUID()}`,
      parameters: [{ name: 'id', type: 'conversation_id', is_required: true }],
    });
    const created = await client.callImports.create({
      schema_id: schema.id,
      files: [
        { data: silentWav(200, 1), filename: 'call-a.wav' },
        { data: silentWav(200, 2), filename: 'call-b.wav' },
      ],
      dataset: 'Recorded',
    });
    expect(created).toMatchObject({ source_format: 'audio', total_rows: 2, dataset: 'Recorded' });
    const detail = await client.callImports.get(created.id);
    expect(detail.rows.map((r) => [r.conversation_id, r.has_recording])).toEqual([
      ['call-a', true],
      ['call-b', true],
    ]);
  });

  it('a row, its recording whole and in part, and a signed URL that needs no credentials', async () => {
    const client = h.sdk();
    const schema = await client.callImportSchemas.create({
      name: `Audio ${randomUUID()}`,
      parameters: [{ name: 'id', type: 'conversation_id', is_required: true }],
    });
    const wav = silentWav(400, 3);
    const created = await client.callImports.create({
      schema_id: schema.id,
      files: [{ data: wav, filename: 'call-a.wav' }],
    });
    const [listed] = (await client.callImports.get(created.id)).rows;
    expect(await client.callImports.getRow(created.id, listed!.id)).toEqual(listed);

    const whole = await client.callImports.recording(created.id, listed!.id);
    expect([whole.status, whole.headers.get('content-type')]).toEqual([200, 'audio/wav']);
    expect(Buffer.from(await whole.arrayBuffer()).equals(wav)).toBe(true);
    const part = await client.callImports.recording(created.id, listed!.id, {
      range: { start: 40, end: 47 },
    });
    expect([part.status, part.headers.get('content-range')]).toEqual([206, `bytes 40-47/${wav.length}`]);
    expect(Buffer.from(await part.arrayBuffer()).equals(wav.subarray(40, 48))).toBe(true);
    const past = await expectApiError(
      client.callImports.recording(created.id, listed!.id, { range: { start: wav.length } }),
      ApiError,
      416,
      'range_not_satisfiable',
    );
    expect(past.headers.get('content-range')).toBe(`bytes */${wav.length}`);
    await expectApiError(client.callImports.recording(created.id, randomUUID()), NotFoundError, 404);

    const { url, expires_at } = await client.callImports.recordingUrl(created.id, listed!.id);
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now());
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(200);
    expect(Buffer.from(await anonymous.arrayBuffer()).equals(wav)).toBe(true);
  });

  it('lists newest first across pages, filtered by dataset and tags', async () => {
    const client = h.sdk({}, await h.createTenant());
    const schema = await makeSchema(client);
    const tag = await client.tags.create({ name: 'alpha' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift((await importCalls(client, transcripts(1), schema.id)).id);
    const tagged = await client.callImports.create({
      file: csvFile('conversation_id,transcript\nx,hello'),
      schema_id: schema.id,
      dataset: 'Sales',
      tag_ids: [tag.id],
    });
    expect(tagged.tags.map((t) => t.name)).toEqual(['alpha']);
    await expectPagination((q) => client.callImports.list(q), [tagged.id, ...ids], 2);
    expect((await client.callImports.list({ dataset: 'SALES' })).items.map((i) => i.id)).toEqual([tagged.id]);
    expect((await client.callImports.list({ dataset: 'none' })).total).toBe(3);
    expect((await client.callImports.list({ tag_id: [tag.id] })).items.map((i) => i.id)).toEqual([tagged.id]);
  });

  it('files and mappings that do not fit are 415 and 422 problems', async () => {
    const client = h.sdk();
    const schema = await makeSchema(client);
    const binary = { data: new Uint8Array([0, 1, 2, 3, 255, 254, 0, 0, 7]), filename: 'calls.csv' };
    const unsupported = await expectApiError(
      client.callImports.create({ file: binary, schema_id: schema.id }),
      ApiError,
      415,
      'unsupported_media_type',
    );
    expect(unsupported.constructor).toBe(ApiError);
    await expectApiError(
      client.callImports.create({
        file: csvFile('conversation_id,transcript\nx,hello'),
        schema_id: schema.id,
        column_mapping: { transcript: 'No such column' },
      }),
      UnprocessableEntityError,
      422,
    );
    await expectApiError(
      client.callImports.list({ page_size: 101 }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
  });

  it('delete answers 204 and frees the schema; unknown ids are 404 problems; readers cannot upload', async () => {
    const client = h.sdk();
    const schema = await makeSchema(client);
    const created = await importCalls(client, transcripts(1), schema.id);
    await expectApiError(client.callImportSchemas.delete(schema.id), ConflictError, 409, 'in_use');
    await expect(client.callImports.delete(created.id)).resolves.toBeUndefined();
    await expectApiError(client.callImports.get(created.id), NotFoundError, 404, 'not_found');
    await expectApiError(client.callImports.rowIds(randomUUID()), NotFoundError, 404, 'not_found');
    await expect(client.callImportSchemas.delete(schema.id)).resolves.toBeUndefined();
    const reader = await h.sdkAs('READER');
    await expectApiError(
      importCalls(reader, transcripts(1), schema.id),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });

  it('dispatch diagnostics answer for admins and are a 403 problem below', async () => {
    await expect(h.sdk().callImports.dispatchDiagnostics()).resolves.toMatchObject({
      workspaces: expect.any(Array),
    });
    await expectApiError(
      (await h.sdkAs('MEMBER')).callImports.dispatchDiagnostics(),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
