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

let h: Harness;
let schemaId: string;

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
  schemaId = await createSchema(h, h);
});

describe('POST /api/v1/call-imports (CSV)', () => {
  it('ingests rows, typing values, and records every rejected source row with its reason', async () => {
    const tag = await createTag(h, h, 'Q3 calls');
    const rows = [
      ['conversation_id', 'agent', 'score', 'recording', 'transcript', 'called_at', '', 'Agent', 'campaign'],
      [
        'c-1',
        'Ava',
        '4.50',
        'https://calls.example/1.wav',
        'hi there',
        '2026-03-01T10:00:00+02:00',
        'x',
        'dup',
        'spring',
      ],
      ['', '', '', '', '', '', '', '', ''],
      ['', 'Bo', '1', '', '', '', '', '', ''],
      ['c-1', 'Cy', '2', '', '', '', '', '', ''],
      ['c-4', '', '3', '', '', '', '', '', ''],
      ['c-5', 'Di', 'lots', '', '', '', '', '', ''],
      ['c-6', 'Ed', '1', 'ftp://nope/6.wav', '', '', '', '', ''],
      ['c-7', 'Flo', '', '', '', 'not a date', '', '', ''],
      ['c-8', 'Gus', '', '', '', '', '', '', 'autumn'],
    ];
    const created = await importCsv(h, h, schemaId, rows, { dataset: 'Support', tag_ids: [tag] });
    expect(created).toMatchObject({
      status: 'completed',
      provider: 'upload',
      schema_id: schemaId,
      dataset: 'Support',
      tags: [{ id: tag, name: 'Q3 calls' }],
      total_rows: 2,
      completed_rows: 0,
      failed_rows: 0,
      source_format: 'csv',
      source_content_type: 'text/csv',
      original_filename: 'calls.csv',
      sheet_name: null,
      error_message: null,
      latest_evaluation_status: null,
      created_by_email: h.owner.user.email,
      extra_columns: ['campaign'],
      skipped_columns: ['#7', 'Agent'],
      custom_column_mapping: { campaign: 'campaign' },
      column_mapping: {
        conversation_id: 'conversation_id',
        agent: 'agent',
        score: 'score',
        recording: 'recording',
        transcript: 'transcript',
        called_at: 'called_at',
      },
      available_sheets: [{ name: 'calls.csv', headers: rows[0], row_count: 9 }],
    });
    expect(created.parameter_mapping).toEqual({
      conversation_id: 'conversation_id',
      agent: 'agent',
      score: 'score',
      recording: 'recording',
      transcript: 'transcript',
      called_at: 'called_at',
    });
    expect(
      created.source_row_skips.map((s: { source_row: number; reason: string }) => [s.source_row, s.reason]),
    ).toEqual([
      [2, 'empty_row'],
      [3, 'missing_conversation_id'],
      [4, 'duplicate_conversation_id'],
      [5, 'missing_required_parameter'],
      [6, 'invalid_value'],
      [7, 'invalid_recording'],
      [8, 'invalid_value'],
    ]);
    expect(created.source_size_bytes).toBeGreaterThan(100);
    expect(await h.server.deps.storage.exists(created.source_storage_key!)).toBe(true);

    const detail = await h.request('GET', `/api/v1/call-imports/${created.id}`, {
      headers: await h.as('READER'),
    });
    expect(detail.body.rows).toEqual([
      expect.objectContaining({
        conversation_id: 'c-1',
        source_row: 1,
        parameters: {
          conversation_id: 'c-1',
          agent: 'Ava',
          score: '4.5',
          recording: 'https://calls.example/1.wav',
          transcript: 'hi there',
          called_at: '2026-03-01T08:00:00.000Z',
          campaign: 'spring',
        },
        recording_url: 'https://calls.example/1.wav',
        recording_storage_key: null,
        has_recording: true,
        source_transcript: 'hi there',
        diarised_transcript: null,
        diarised_transcript_status: null,
        diarised_transcript_error: null,
      }),
      expect.objectContaining({
        conversation_id: 'c-8',
        source_row: 9,
        has_recording: false,
        source_transcript: null,
      }),
    ]);
  });

  it('sniffs the delimiter, drops a BOM and maps columns explicitly', async () => {
    const text = '\uFEFFid;who;spoken\r\nA1;Ava;"hello; there"\r\nA2;Bo;bye\r\n';
    const reply = await upload(
      h,
      await h.as('MEMBER'),
      {
        schema_id: schemaId,
        column_mapping: JSON.stringify({ conversation_id: 'ID', agent: 'who', transcript: 'spoken' }),
      },
      [{ field: 'file', name: 'semi.csv', bytes: text }],
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      total_rows: 2,
      column_mapping: { conversation_id: 'id', agent: 'who', transcript: 'spoken' },
    });
    const detail = await h.request('GET', `/api/v1/call-imports/${reply.body.id}`, {
      headers: await h.as('READER'),
    });
    expect(detail.body.rows[0]).toMatchObject({ conversation_id: 'A1', source_transcript: 'hello; there' });
  });

  it('rejects a mapping that does not fit the file or the schema (422, nothing stored)', async () => {
    const headers = await h.as('MEMBER');
    const part = csvPart([
      ['id', 'who'],
      ['1', 'Ava'],
    ]);
    const mapping = { conversation_id: 'id', nope: 'who', agent: 'missing' };
    const reply = await upload(h, headers, { schema_id: schemaId, column_mapping: JSON.stringify(mapping) }, [
      part,
    ]);
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors).toEqual([
      { path: 'body.column_mapping.nope', message: 'The schema has no parameter "nope"' },
      { path: 'body.column_mapping.agent', message: 'The file has no column "missing"' },
      { path: 'body.column_mapping', message: 'Map a column to the required parameter "agent"' },
    ]);
    const twice = await upload(
      h,
      headers,
      { schema_id: schemaId, column_mapping: '{"conversation_id":"id","agent":"id"}' },
      [part],
    );
    expect(twice.body.errors).toContainEqual({
      path: 'body.column_mapping.agent',
      message: 'Column "id" is mapped twice',
    });
    const unmapped = await upload(h, headers, { schema_id: schemaId }, [csvPart([['who'], ['Ava']])]);
    expect(unmapped.body.errors[0]).toEqual({
      path: 'body.column_mapping',
      message: 'Map a column to the required parameter "conversation_id"',
    });
  });

  it.each([
    [{ schema_id: '' }, 'body.schema_id'],
    [{ schema_id: 'nope' }, 'body.schema_id'],
    [{ column_mapping: '{nope' }, 'body.column_mapping'],
    [{ column_mapping: '["a"]' }, 'body.column_mapping'],
    [{ dataset: 'None' }, 'body.dataset'],
    [{ tag_ids: 'not-a-uuid' }, 'body.tag_ids.0'],
    [{ sheet_name: 'Sheet1' }, 'body.sheet_name'],
    [{ surprise: 'field' }, 'body'],
  ])('rejects the form fields %j (422 on %s)', async (fields, path) => {
    const reply = await upload(h, await h.as('MEMBER'), { schema_id: schemaId, ...fields }, [
      csvPart(callRows(1)),
    ]);
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('rejects unknown tags, both or neither file fields, and a non-multipart body', async () => {
    const headers = await h.as('MEMBER');
    const unknownTag = await upload(h, headers, { schema_id: schemaId, tag_ids: [crypto.randomUUID()] }, [
      csvPart(callRows(1)),
    ]);
    expectProblem(unknownTag, 422, 'rule_violation');
    const both = [csvPart(callRows(1)), { field: 'files' as const, name: 'a.wav', bytes: 'x' }];
    expectProblem(await upload(h, headers, { schema_id: schemaId }, both), 422, 'validation_failed');
    expectProblem(await upload(h, headers, { schema_id: schemaId }, []), 422, 'validation_failed');
    const json = await h.request('POST', '/api/v1/call-imports', { headers, body: { schema_id: schemaId } });
    expectProblem(json, 415, 'unsupported_media_type');
    const unexpected = await upload(h, headers, { schema_id: schemaId }, [
      { field: 'manifest' as 'file', name: 'a.csv', bytes: 'a' },
    ]);
    expectProblem(unexpected, 422, 'validation_failed');
  });

  it('judges the format by content: a binary file is 415 whatever its name', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const reply = await upload(h, await h.as('MEMBER'), { schema_id: schemaId }, [
      { field: 'file', name: 'calls.csv', bytes: png, type: 'text/csv' },
    ]);
    expectProblem(reply, 415, 'unsupported_media_type');
  });

  it('records an unreadable CSV as a failed import with its reason and no rows', async () => {
    const broken = 'conversation_id,agent\nc-1,Ava\nc-2,"unterminated\n';
    const reply = await upload(h, await h.as('MEMBER'), { schema_id: schemaId }, [
      { field: 'file', name: 'broken.csv', bytes: broken },
    ]);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'failed', total_rows: 0, source_format: 'csv' });
    expect(reply.body.error_message).toMatch(/CSV file could not be read/);
    expect(await h.server.deps.storage.exists(reply.body.source_storage_key)).toBe(true);
    expect(await h.db('call_import_rows').where('call_import_id', reply.body.id).count({ n: '*' })).toEqual([
      { n: 0 },
    ]);
  });
});
