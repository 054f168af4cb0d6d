import type { CallImport, CallImportRow, RecordingUrl } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { callRows, createSchema, importCsv, upload } from '../../../test/factories/call-imports.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';
import { encodeWav } from '../../voice/audio/index.js';

let h: Harness;
let recorded: CallImport & { rows: CallImportRow[] };
let manifest: CallImport & { rows: CallImportRow[] };

/** Half a second of stereo 8 kHz PCM with a ramp, so any byte range is recognisable. */
const wav = Buffer.from(
  encodeWav({
    sampleRate: 8000,
    channels: [
      Int16Array.from({ length: 4000 }, (_, i) => i),
      Int16Array.from({ length: 4000 }, (_, i) => -i),
    ],
  }),
);

/** An import of two uploaded WAV files in `tenant`'s workspace, with its rows. */
const importRecordings = async (tenant: Tenant) => {
  const schemaId = await createSchema(h, tenant, [
    { name: 'conversation_id', type: 'conversation_id', is_required: true },
    { name: 'recording', type: 'recording_url', is_required: true },
  ]);
  const files = ['call-a.wav', 'call-b.wav'].map((name) => ({
    field: 'files' as const,
    name,
    bytes: wav,
    type: 'audio/wav',
  }));
  const reply = await upload(h, await tenant.as('MEMBER'), { schema_id: schemaId }, files);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return detail(tenant, reply.body.id);
};

const detail = async (tenant: Tenant, id: string) => {
  const reply = await h.request('GET', `/api/v1/call-imports/${id}`, { headers: await tenant.as('READER') });
  expect(reply.status).toBe(200);
  return reply.body as CallImport & { rows: CallImportRow[] };
};

const rowPath = (row: CallImportRow) => `/api/v1/call-imports/${row.call_import_id}/rows/${row.id}`;

/** GET (or HEAD) of a recording with raw bytes back. */
const download = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await fetch(path.startsWith('http') ? path : `${h.url}${path}`, { method, headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const problem = /problem\+json/.test(res.headers.get('content-type') ?? '')
    ? JSON.parse(bytes.toString('utf8'))
    : undefined;
  return { status: res.status, headers: res.headers, bytes, body: problem };
};

const signedUrl = async (row: CallImportRow): Promise<RecordingUrl> => {
  const reply = await h.request('GET', `${rowPath(row)}/recording-url`, { headers: await h.as('READER') });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
  recorded = await importRecordings(h);
  const schemaId = await createSchema(h, h);
  const csv = await importCsv(
    h,
    h,
    schemaId,
    callRows(2, (i) => ({ recording: i === 0 ? 'https://recordings.example.test/a.wav' : '' })),
  );
  manifest = await detail(h, csv.id);
});

describe('GET /api/v1/call-imports/{id}/rows/{row_id}', () => {
  it("answers the row as the import's detail lists it", async () => {
    const row = recorded.rows[1]!;
    const reply = await h.request('GET', rowPath(row), { headers: await h.as('READER') });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(row);
  });

  it('is 404 for an unknown row, and for a row of another import', async () => {
    const headers = await h.as('READER');
    const row = recorded.rows[0]!;
    const unknown = `/api/v1/call-imports/${row.call_import_id}/rows/${crypto.randomUUID()}`;
    expectProblem(await h.request('GET', unknown, { headers }), 404, 'not_found');
    const elsewhere = `/api/v1/call-imports/${manifest.id}/rows/${row.id}`;
    expectProblem(await h.request('GET', elsewhere, { headers }), 404, 'not_found');
    const garbage = `/api/v1/call-imports/${row.call_import_id}/rows/not-a-uuid`;
    expectProblem(await h.request('GET', garbage, { headers }), 422, 'validation_failed');
  });
});

describe('GET /api/v1/call-imports/{id}/rows/{row_id}/recording', () => {
  it('sends the stored recording whole, with its type, length and caching rules', async () => {
    const { status, headers, bytes } = await download(
      `${rowPath(recorded.rows[0]!)}/recording`,
      await h.as('READER'),
    );
    expect(status).toBe(200);
    expect(bytes.equals(wav)).toBe(true);
    expect(headers.get('content-type')).toBe('audio/wav');
    expect(headers.get('content-length')).toBe(String(wav.length));
    expect(headers.get('accept-ranges')).toBe('bytes');
    expect(headers.get('cache-control')).toBe('private, no-cache');
    expect(headers.get('content-disposition')).toBe('inline; filename="call-a.wav"');
  });

  it('answers HEAD with the headers alone', async () => {
    const path = `${rowPath(recorded.rows[0]!)}/recording`;
    const { status, headers, bytes } = await download(path, await h.as('READER'), 'HEAD');
    expect(status).toBe(200);
    expect(headers.get('content-length')).toBe(String(wav.length));
    expect(bytes.length).toBe(0);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, wav.length - 1],
    ['bytes=-10', wav.length - 10, wav.length - 1],
    [`bytes=${wav.length - 5}-${wav.length + 100}`, wav.length - 5, wav.length - 1],
  ])('sends the part %s asks for with 206', async (range, start, end) => {
    const headers = { ...(await h.as('READER')), range };
    const reply = await download(`${rowPath(recorded.rows[0]!)}/recording`, headers);
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe(`bytes ${start}-${end}/${wav.length}`);
    expect(reply.headers.get('content-length')).toBe(String(end - start + 1));
    expect(reply.headers.get('content-type')).toBe('audio/wav');
    expect(reply.bytes.equals(wav.subarray(start, end + 1))).toBe(true);
  });

  it.each([
    `bytes=${wav.length}-`,
    'bytes=abc',
    'bytes=5-2',
  ])('refuses %s with 416 and the size in Content-Range', async (range) => {
    const headers = { ...(await h.as('READER')), range };
    const reply = await download(`${rowPath(recorded.rows[0]!)}/recording`, headers);
    expectProblem(reply as never, 416, 'range_not_satisfiable');
    expect(reply.headers.get('content-range')).toBe(`bytes */${wav.length}`);
  });

  it.each([
    'bytes=0-1,100-101',
    'items=0-5',
  ])('answers %s (several ranges, another unit) with the whole recording, as HTTP allows', async (range) => {
    const headers = { ...(await h.as('READER')), range };
    const reply = await download(`${rowPath(recorded.rows[0]!)}/recording`, headers);
    expect(reply.status).toBe(200);
    expect(reply.bytes.equals(wav)).toBe(true);
  });

  it('is 404 for a row whose recording is only a URL, and for a row without one', async () => {
    const headers = await h.as('READER');
    const [linked, bare] = manifest.rows;
    const url = await download(`${rowPath(linked!)}/recording`, headers);
    expectProblem(url as never, 404, 'not_found');
    expect(url.body.detail).toMatch(/recording_url/);
    expectProblem((await download(`${rowPath(bare!)}/recording`, headers)) as never, 404, 'not_found');
    expectProblem((await h.request('GET', `${rowPath(bare!)}/recording-url`, { headers })) as never, 404);
  });

  describeAccessRules(
    () => h,
    [
      {
        route: 'GET /api/v1/call-imports/{id}/rows/{row_id}/recording',
        minRole: 'READER',
        scoped: true,
        request: async (tenant) => {
          const own = tenant === h ? recorded : await importRecordings(tenant);
          return { path: `${rowPath(own.rows[0]!)}/recording` };
        },
      },
      {
        route: 'GET /api/v1/call-imports/{id}/rows/{row_id}/recording/peaks',
        minRole: 'READER',
        scoped: true,
        request: async (tenant) => {
          const own = tenant === h ? recorded : await importRecordings(tenant);
          return { path: `${rowPath(own.rows[0]!)}/recording/peaks` };
        },
      },
      {
        route: 'GET /api/v1/call-imports/{id}/rows/{row_id}/recording-url',
        minRole: 'READER',
        scoped: true,
        request: async (tenant) => {
          const own = tenant === h ? recorded : await importRecordings(tenant);
          return { path: `${rowPath(own.rows[0]!)}/recording-url` };
        },
      },
    ],
  );
});

describe('GET /api/v1/call-imports/{id}/rows/{row_id}/recording/peaks', () => {
  const peaks = async (row: CallImportRow, query = '') =>
    h.request('GET', `${rowPath(row)}/recording/peaks${query}`, { headers: await h.as('READER') });

  it('summarises each channel as the largest sample of each slice, with the duration', async () => {
    const reply = await peaks(recorded.rows[0]!, '?points=10');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // the ramp: 400 frames a slice, the last frame of each the largest (the right channel negated)
    const ramp = Array.from(
      { length: 10 },
      (_, i) => Math.round(((400 * (i + 1) - 1) / 32767) * 10_000) / 10_000,
    );
    expect(reply.body).toEqual({ duration_ms: 500, sample_rate: 8000, channels: [ramp, ramp] });
    const byDefault = await peaks(recorded.rows[0]!);
    expect(byDefault.body.channels.map((c: number[]) => c.length)).toEqual([1000, 1000]);
  });

  it('refuses a number of points out of range, a row without a stored recording, and a file not WAV', async () => {
    expectProblem(await peaks(recorded.rows[0]!, '?points=5'), 422, 'validation_failed');
    expectProblem(await peaks(recorded.rows[0]!, '?points=many'), 422, 'validation_failed');
    const [linked, bare] = manifest.rows;
    expectProblem(await peaks(linked!), 404, 'not_found');
    expectProblem(await peaks(bare!), 404, 'not_found');
    // a stored file that is not a WAV (overwritten here: uploads are checked to be audio)
    const row = (await importRecordings(h)).rows[1]!;
    expect(row.recording_storage_key).not.toBe(recorded.rows[0]!.recording_storage_key);
    await h.server.deps.storage.put(row.recording_storage_key!, Buffer.from('ID3 not a wav at all'));
    expectProblem(await peaks(row), 415, 'unsupported_media_type');
  });
});

describe('signed recording URLs', () => {
  it('work without credentials for 15 minutes, whole or by range', async () => {
    const row = recorded.rows[0]!;
    const before = Date.now();
    const { url, expires_at } = await signedUrl(row);
    expect(url.startsWith(`${h.url}${rowPath(row)}/recording?expires=`)).toBe(true);
    const lifetime = Date.parse(expires_at) - before;
    expect(lifetime).toBeGreaterThan(14 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
    const whole = await download(url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(wav)).toBe(true);
    expect(whole.headers.get('cache-control')).toMatch(/^private, max-age=(8[4-9]\d|900)$/);
    const part = await download(url, { range: 'bytes=44-47' });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(wav.subarray(44, 48))).toBe(true);
  });

  it('are refused once expired', async () => {
    const { url } = await signedUrl(recorded.rows[0]!);
    const { deps } = h.server;
    const realNow = deps.now;
    deps.now = () => new Date(realNow().getTime() + 15 * 60_000 + 1_000);
    try {
      expectProblem((await download(url)) as never, 401, 'unauthenticated');
    } finally {
      deps.now = realNow;
    }
  });

  it('are refused when the signature, the expiry or the row is changed', async () => {
    const [a, b] = recorded.rows;
    const { url } = await signedUrl(a!);
    const parsed = new URL(url);
    const signature = parsed.searchParams.get('signature')!;
    const expires = Number(parsed.searchParams.get('expires'));
    // every spelling of the last character, but the server's own, is refused
    const lastChars = ['A', 'B', 'C', 'D', 'Q', 'g', 'w'].filter((c) => !signature.endsWith(c));
    for (const c of lastChars) {
      const respelled = `${h.url}${parsed.pathname}?expires=${expires}&signature=${signature.slice(0, -1)}${c}`;
      expectProblem((await download(respelled)) as never, 401, 'unauthenticated');
    }
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const variants = [
      `${h.url}${parsed.pathname}?expires=${expires}&signature=${flipped}`,
      `${h.url}${parsed.pathname}?expires=${expires + 3600}&signature=${signature}`,
      `${h.url}${rowPath(b!)}/recording?expires=${expires}&signature=${signature}`,
      `${h.url}${parsed.pathname}?signature=${signature}`,
    ];
    for (const variant of variants) {
      expectProblem((await download(variant)) as never, 401, 'unauthenticated');
    }
    const garbage = await download(`${h.url}${parsed.pathname}?expires=soon&signature=${signature}`);
    expectProblem(garbage as never, 422, 'validation_failed');
  });

  it("of another organization's row cannot be used for this one", async () => {
    const other = await h.createTenant();
    const theirs = await importRecordings(other);
    const reply = await h.request('GET', `${rowPath(theirs.rows[0]!)}/recording-url`, {
      headers: await other.as('READER'),
    });
    const signature = new URL(reply.body.url).searchParams.get('signature');
    const expires = new URL(reply.body.url).searchParams.get('expires');
    const ours = `${h.url}${rowPath(recorded.rows[0]!)}/recording?expires=${expires}&signature=${signature}`;
    expectProblem((await download(ours)) as never, 401, 'unauthenticated');
  });

  it('start with the configured public URL', async () => {
    const { deps } = h.server;
    const real = deps.config;
    deps.config = { ...real, publicUrl: 'https://eval.example.com/voice' };
    try {
      const { url } = await signedUrl(recorded.rows[0]!);
      expect(url.startsWith(`https://eval.example.com/voice${rowPath(recorded.rows[0]!)}/recording?`)).toBe(
        true,
      );
    } finally {
      deps.config = real;
    }
  });
});
