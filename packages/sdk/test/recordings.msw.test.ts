import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError, AuthenticationError, NotFoundError } from '../src/index.js';
import { BASE_URL, useMockApi } from './helpers.js';

const { api, client } = useMockApi();

/** An import in the default workspace with a row that has a stored recording and one that has none. */
const seed = () => {
  const callImport = api.db.callImports.create(api.fixtures.callImport({ source_format: 'audio' }));
  const [recorded, bare] = [
    { recording_storage_key: 'recordings/call-a.wav', recording_url: null, has_recording: true },
    { recording_storage_key: null, recording_url: null, has_recording: false },
  ].map((fields, i) =>
    api.db.callImportRows.create(
      api.fixtures.callImportRow({ call_import_id: callImport.id, source_row: i + 1, ...fields }),
    ),
  );
  return { callImport, recorded: recorded!, bare: bare! };
};

describe('rows and recordings in the mock API', () => {
  it('reads a row, and is 404 for a row of another import', async () => {
    const { callImport, recorded } = seed();
    await expect(client().callImports.getRow(callImport.id, recorded.id)).resolves.toEqual(recorded);
    await expect(client().callImports.getRow(randomUUID(), recorded.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('serves a WAV whole and by range, and refuses a range past its end with 416', async () => {
    const { callImport, recorded, bare } = seed();
    const whole = await client().callImports.recording(callImport.id, recorded.id);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
    const part = await client().callImports.recording(callImport.id, recorded.id, {
      range: { start: 8, end: 11 },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-11/${bytes.length}`);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('WAVE');
    const past = await client()
      .callImports.recording(callImport.id, recorded.id, { range: { start: bytes.length } })
      .catch((e: unknown) => e);
    expect(past).toBeInstanceOf(ApiError);
    expect(past).toMatchObject({ status: 416, code: 'range_not_satisfiable' });
    await expect(client().callImports.recording(callImport.id, bare.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('hands out signed URLs that work without credentials for that recording only', async () => {
    const { callImport, recorded } = seed();
    const { url, expires_at } = await client().callImports.recordingUrl(callImport.id, recorded.id);
    expect(
      url.startsWith(`${BASE_URL}/api/v1/call-imports/${callImport.id}/rows/${recorded.id}/recording?`),
    ).toBe(true);
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now());
    const anonymous = await fetch(url);
    expect([anonymous.status, anonymous.headers.get('content-type')]).toEqual([200, 'audio/wav']);
    const tampered = await fetch(url.replace(/signature=[^&]+/, 'signature=forged'));
    expect(tampered.status).toBe(401);
    await expect(
      client({ apiKey: undefined }).callImports.recording(callImport.id, recorded.id),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });
});
