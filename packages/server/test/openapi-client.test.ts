/**
 * A client generated from `contract/openapi.json` works: openapi-typescript turns the document
 * into types that type-check (skipLibCheck false, wrong bodies and paths refused), and an
 * openapi-fetch client on them runs the README's quickstart against the real server.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { readOpenApiDocument } from './openapi/validator.js';

const QUICKSTART = `import createClient from 'openapi-fetch';
import type { paths } from './paths.js';

/** Signup, an API key, then a metric created and read back with the key. */
export const quickstart = async (baseUrl: string, email: string) => {
  const anonymous = createClient<paths>({ baseUrl });
  const session = await anonymous.POST('/api/v1/auth/signup', { body: { email, password: 'a long password' } });
  if (!session.data) throw new Error(\`signup: \${JSON.stringify(session.error)}\`);
  const headers = { authorization: \`Bearer \${session.data.access_token}\` };
  const key = await createClient<paths>({ baseUrl, headers }).POST('/api/v1/auth/generate-key', {
    body: { name: 'quickstart' },
  });
  if (!key.data) throw new Error(\`generate-key: \${JSON.stringify(key.error)}\`);
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': key.data.key } });
  const created = await client.POST('/api/v1/metrics', { body: { name: 'Resolved', metric_type: 'boolean' } });
  if (!created.data) throw new Error(\`create: \${JSON.stringify(created.error)}\`);
  const got = await client.GET('/api/v1/metrics/{metric_id}', { params: { path: { metric_id: created.data.id } } });
  const page = await client.GET('/api/v1/metrics', { params: { query: { page: 1, page_size: 10 } } });
  const missing = await client.GET('/api/v1/metrics/{metric_id}', {
    params: { path: { metric_id: '00000000-0000-4000-8000-000000000000' } },
  });
  const lifecycle: 'active' | 'draft' | undefined = got.data?.lifecycle;
  return { id: created.data.id, got: got.data?.id, lifecycle, total: page.data?.total, code: missing.error?.code };
};

/** Never called: each line must fail to compile. */
export const refused = (client: ReturnType<typeof createClient<paths>>) => [
  // @ts-expect-error metric_type is an enum
  client.POST('/api/v1/metrics', { body: { name: 'x', metric_type: 'percent' } }),
  // @ts-expect-error name is required
  client.POST('/api/v1/metrics', { body: {} }),
  // @ts-expect-error page_size is an integer
  client.GET('/api/v1/metrics', { params: { query: { page_size: '10' } } }),
  // @ts-expect-error no such path
  client.GET('/api/v1/metric'),
];
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['quickstart.ts'],
};

// inside the package (in the git-ignored .tmp) so `openapi-fetch` resolves from the workspace
const scratch = fileURLToPath(new URL('../.tmp/', import.meta.url));
mkdirSync(scratch, { recursive: true });
const dir = mkdtempSync(join(scratch, 'openapi-client-'));
let h: Harness;

beforeAll(async () => {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(dir, 'paths.d.ts'), astToString(await openapiTS(readOpenApiDocument() as OpenAPI3)));
  writeFileSync(join(dir, 'quickstart.ts'), QUICKSTART);
  h = await createHarness();
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a client generated from openapi.json', () => {
  it('type-checks with openapi-typescript types, and refuses wrong bodies, queries and paths', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);

  it('runs the quickstart with openapi-fetch: signup, API key, create a metric, get it', async () => {
    const { quickstart } = await import(join(dir, 'quickstart.ts'));
    const result = await quickstart(h.url, `quickstart-${Date.now()}@example.test`);
    expect(result).toEqual({
      id: expect.any(String),
      got: result.id,
      lifecycle: 'active',
      total: 1,
      code: 'not_found',
    });
  });
});
