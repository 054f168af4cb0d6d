import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { createHarness, type Harness, type Headers, type Reply } from '../../test/harness.js';
import { setPlan } from '../commands/set-plan.js';

/** Malformed multipart bodies on both upload routes: a client error, and nothing stored. */

let h: Harness;
let owner: Headers;
let dataDir: string;
let personaId: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-multipart-'));
  h = await createHarness({ dataDir });
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
  owner = await h.as('OWNER');
  const persona = await h.request('POST', '/api/v1/personas', {
    headers: owner,
    body: { name: 'P', tts_provider: 'elevenlabs', tts_voice_id: 'rachel' },
  });
  expect(persona.status, JSON.stringify(persona.body)).toBe(201);
  personaId = persona.body.id;
});

const CSV = 'conversation_id,agent\nc1,a\nc2,b\n';
const part = (boundary: string, name: string, filename: string, content: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
  `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`;
const form = (boundary: string, filename = 'calls.csv', content = CSV) =>
  `${part(boundary, 'file', filename, content)}--${boundary}--\r\n`;

/** Each malformed body: the content type sent and the bytes. */
const MALFORMED: Array<[string, string, string]> = [
  ['no boundary', 'multipart/form-data', form('XyZ')],
  ['a wrong boundary', 'multipart/form-data; boundary=AbC', form('XyZ')],
  ['a truncated body', 'multipart/form-data; boundary=XyZ', form('XyZ').slice(0, 120)],
  ['a cut mid-header', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-da'],
  ['an empty body', 'multipart/form-data; boundary=XyZ', ''],
  ['NUL in the file name', 'multipart/form-data; boundary=XyZ', form('XyZ', 'a\0b.csv')],
  ['a bad boundary parameter', 'multipart/form-data; boundary="', form('XyZ')],
];

const send = async (path: string, contentType: string, body: string): Promise<Reply> => {
  const res = await fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { ...owner, 'content-type': contentType },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

const ROUTES = [
  ['POST /call-imports', () => '/api/v1/call-imports'],
  ['POST /personas/{id}/ambient-audio', () => `/api/v1/personas/${personaId}/ambient-audio`],
] as const;

describe.each(ROUTES)('%s with a malformed multipart body', (_route, path) => {
  it.each(MALFORMED)('%s is a client problem and stores nothing', async (_case, contentType, body) => {
    const reply = await send(path(), contentType, body);
    expectProblem(reply, reply.status);
    expect([400, 415, 422]).toContain(reply.status);
    const imports = await h.db('call_imports').where({ organization_id: h.organizationId }).count({ n: '*' });
    expect(Number(imports[0]!.n)).toBe(0);
    const persona = await h.db('personas').where({ id: personaId }).first();
    expect(persona.background_noise_storage_key).toBeNull();
    expect(filesUnder(dataDir).map((f) => join(f.parentPath, f.name))).toEqual([]);
  });
});

describe.each(ROUTES)('%s with a well-formed body of the same shape', (_route, path) => {
  it('is not refused for its form', async () => {
    const reply = await send(path(), 'multipart/form-data; boundary=XyZ', form('XyZ'));
    // the CSV is not audio and the import needs a schema: refused for its content, not its form
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.body.code).not.toBe('bad_request');
  });
});
