import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { toXlsx, zip } from '../../../test/factories/call-import-files.js';
import { createSchema, upload } from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
let schemaId: string;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const workbook = toXlsx([
  { name: 'Notes', rows: [['written by'], ['ops'], ['qa']] },
  {
    name: 'Calls',
    rows: [
      ['Conversation', 'Agent', 'Score', 'Called at', 'Region'],
      ['x-1', 'Ava', 4.25, 46_082.5, 'EU'],
      [],
      ['x-2', 'Bo', null, '2026-02-01', null],
      [1234, 'Cy', 'n/a', null, 'US'],
    ],
  },
]);
const send = async (bytes: Buffer, fields: Record<string, string> = {}) =>
  upload(h, await h.as('MEMBER'), { schema_id: schemaId, ...fields }, [
    { field: 'file', name: 'calls.xlsx', bytes, type: XLSX_TYPE },
  ]);

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
  schemaId = await createSchema(h, h, [
    { name: 'conversation', type: 'conversation_id', is_required: true },
    { name: 'agent', type: 'string' },
    { name: 'score', type: 'number' },
    { name: 'called at', type: 'datetime' },
  ]);
});

describe('POST /api/v1/call-imports (XLSX)', () => {
  it('reads the named sheet as a stream and lists every sheet with its headers and row count', async () => {
    const reply = await send(workbook, { sheet_name: 'calls' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      status: 'completed',
      source_format: 'xlsx',
      source_content_type: XLSX_TYPE,
      sheet_name: 'Calls',
      total_rows: 2,
      extra_columns: ['Region'],
      available_sheets: [
        { name: 'Notes', headers: ['written by'], row_count: 2 },
        { name: 'Calls', headers: ['Conversation', 'Agent', 'Score', 'Called at', 'Region'], row_count: 4 },
      ],
      source_row_skips: [
        { source_row: 2, reason: 'empty_row', message: 'The row is empty.' },
        { source_row: 4, reason: 'invalid_value', message: expect.stringContaining('"score"') },
      ],
    });
    const detail = await h.request('GET', `/api/v1/call-imports/${reply.body.id}`, {
      headers: await h.as('READER'),
    });
    expect(detail.body.rows.map((r: { parameters: unknown }) => r.parameters)).toEqual([
      {
        conversation: 'x-1',
        agent: 'Ava',
        score: '4.25',
        'called at': '2026-03-01T12:00:00.000Z',
        Region: 'EU',
      },
      {
        conversation: 'x-2',
        agent: 'Bo',
        score: null,
        'called at': '2026-02-01T00:00:00.000Z',
        Region: null,
      },
    ]);
  });

  it('reads the first sheet by default', async () => {
    const reply = await send(workbook, { column_mapping: JSON.stringify({ conversation: 'written by' }) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ sheet_name: 'Notes', total_rows: 2 });
  });

  it('is 422 for a sheet the workbook does not have', async () => {
    const reply = await send(workbook, { sheet_name: 'Missing' });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors).toEqual([
      { path: 'body.sheet_name', message: 'Expected one of: Notes, Calls' },
    ]);
  });

  it('records a ZIP that is not a workbook as a failed import', async () => {
    const reply = await send(zip({ 'readme.txt': 'hello' }));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'failed', source_format: 'xlsx', total_rows: 0 });
    expect(reply.body.error_message).toBe('The ZIP file is not an XLSX workbook.');
  });

  it('refuses a workbook whose parts expand beyond the limit before parsing them', async () => {
    const bomb = zip({
      'xl/workbook.xml': '<workbook/>',
      'xl/sharedStrings.xml': Buffer.alloc(130 * 1024 * 1024, 0x20),
    });
    const reply = await send(bomb);
    expect(reply.body).toMatchObject({ status: 'failed', error_message: expect.stringContaining('expands') });
  });
});
