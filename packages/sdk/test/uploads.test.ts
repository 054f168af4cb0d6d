import { createReadStream, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { toFile, VoiceEvalError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const CSV = 'conversation_id,recording_url\nc-1,https://example.test/1.wav\n';
const csvPath = join(tmpdir(), `voice-eval-upload-${process.pid}.csv`);
writeFileSync(csvPath, CSV);
afterAll(() => rmSync(csvPath, { force: true }));

/** Captures the multipart form the server receives for `callImports.create`. */
const captureForm = () => {
  const forms: FormData[] = [];
  server.use(
    api.mocks.callImports.create(async ({ request }) => {
      forms.push(await request.formData());
      return { status: 201, body: api.fixtures.callImport() };
    }),
  );
  return forms;
};

const fileText = async (form: FormData, name = 'file') => {
  const file = form.get(name) as File;
  return { name: file.name, type: file.type, text: await file.text() };
};

describe('call import uploads', () => {
  it('sends text fields as plain strings, the mapping as JSON and tag ids repeated', async () => {
    const forms = captureForm();
    await client().callImports.create({
      file: new File([CSV], 'calls.csv', { type: 'text/csv' }),
      schema_id: '00000000-0000-4000-8000-000000000001',
      column_mapping: { conversation_id: 'conversation_id' },
      dataset: 'March',
      tag_ids: ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'],
    });
    const form = forms[0]!;
    expect(form.get('schema_id')).toBe('00000000-0000-4000-8000-000000000001');
    expect(form.get('dataset')).toBe('March');
    expect(JSON.parse(form.get('column_mapping') as string)).toEqual({ conversation_id: 'conversation_id' });
    expect(form.getAll('tag_ids')).toHaveLength(2);
    expect(await fileText(form)).toEqual({ name: 'calls.csv', type: 'text/csv', text: CSV });
  });

  it.each([
    ['a Blob with a file name', () => ({ data: new Blob([CSV]), filename: 'calls.csv' })],
    ['a Buffer with a file name', () => ({ data: Buffer.from(CSV), filename: 'calls.csv' })],
    [
      'a Uint8Array with a type',
      () => ({ data: new TextEncoder().encode(CSV), filename: 'calls.csv', contentType: 'text/plain' }),
    ],
    [
      'a Node Readable with a file name',
      () => ({ data: Readable.from([Buffer.from(CSV)]), filename: 'calls.csv' }),
    ],
    ['a web ReadableStream', () => ({ data: new Blob([CSV]).stream(), filename: 'calls.csv' })],
    ['an fs read stream (named by its path)', () => createReadStream(csvPath)],
  ])('accepts %s', async (_label, make) => {
    const forms = captureForm();
    await client().callImports.create({ file: make(), schema_id: '00000000-0000-4000-8000-000000000001' });
    const sent = await fileText(forms[0]!);
    expect(sent.text).toBe(CSV);
    expect(sent.name).toMatch(/\.csv$/);
  });

  it('uploads several audio files under `files`', async () => {
    const forms = captureForm();
    const wav = (n: number) => ({ data: new Uint8Array([82, 73, 70, 70, n]), filename: `call-${n}.wav` });
    await client().callImports.create({
      files: [wav(1), wav(2)],
      schema_id: '00000000-0000-4000-8000-000000000001',
    });
    const files = forms[0]!.getAll('files') as File[];
    expect(files.map((f) => [f.name, f.type])).toEqual([
      ['call-1.wav', 'audio/wav'],
      ['call-2.wav', 'audio/wav'],
    ]);
  });

  it('a bare Blob has no name and is refused before sending', async () => {
    const bare = new Blob([CSV]) as unknown as File;
    await expect(
      client().callImports.create({ file: { data: bare, filename: '' }, schema_id: 'x' }),
    ).rejects.toThrow(VoiceEvalError);
    await expect(
      // @ts-expect-error a Blob is not an Uploadable: it needs a file name
      client().callImports.create({ file: new Blob([CSV]), schema_id: 'x' }),
    ).rejects.toThrow(/file name/);
  });

  it('is retried with the same body and idempotency key', async () => {
    server.use(api.scenarios.flaky({ failTimes: 1 }));
    const schema = api.db.callImportSchemas.create(api.fixtures.callImportSchema());
    const created = await client().callImports.create({
      file: { data: Readable.from([CSV]), filename: 'calls.csv' },
      schema_id: schema.id,
    });
    expect(created).toMatchObject({
      original_filename: 'calls.csv',
      source_format: 'csv',
      schema_id: schema.id,
    });
  });

  it('the default handler stores the import; toFile builds named files', async () => {
    const file = await toFile(Buffer.from(CSV), 'calls.csv');
    expect(file).toMatchObject({ name: 'calls.csv', type: 'text/csv' });
    const created = await client().callImports.create({
      file,
      schema_id: '00000000-0000-4000-8000-000000000001',
    });
    await expect(client().callImports.get(created.id)).resolves.toMatchObject({
      id: created.id,
      rows: [],
      rows_total: 0,
    });
  });
});

describe('persona ambient audio', () => {
  it('uploads the file and marks the persona custom; deleting resets it', async () => {
    const persona = api.db.personas.create(api.fixtures.persona());
    const updated = await client().personas.uploadAmbientAudio(persona.id, {
      data: new Uint8Array([0x66, 0x4c, 0x61, 0x43]),
      filename: 'rain.flac',
    });
    expect(updated.background_noise_source).toBe('custom');
    expect(updated.background_noise_asset_id).not.toBeNull();
    const cleared = await client().personas.deleteAmbientAudio(persona.id);
    expect(cleared.background_noise_source).toBe('none');
  });
});
