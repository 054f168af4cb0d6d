/**
 * Contract-driven fuzzing: every operation of `contract/openapi.json` gets generated valid and
 * hostile requests (see `inputs.ts`) as the tenant owner, with real ids in path parameters and
 * id fields where the server has handed some out, and random ones. No answer may be a 5xx (but
 * a 502 `provider_error`, an upstream's failure by design), and every error is problem+json.
 * A new route is fuzzed without touching this file. `FUZZ_SEED` replays a run; `FUZZ_CASES` sets
 * the requests per operation (default 8).
 */
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../../../../contract/openapi.json' with { type: 'json' };
import { setPlan } from '../../src/commands/set-plan.js';
import { createHarness, type Harness, type Headers } from '../harness.js';
import {
  badText,
  type Doc,
  Generator,
  HOSTILE_RAW,
  HOSTILE_STRINGS,
  hostileMultipart,
  hostileRawBody,
  IdPool,
  Rng,
  type Schema,
} from './inputs.js';

const doc = openapi as unknown as Doc;
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CASES = Number(process.env.FUZZ_CASES ?? 8);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const WAV = readFileSync(new URL('../fixtures/audio/speech-8k.wav', import.meta.url));
const CSV = 'conversation_id,agent,transcript\nc1,Ava,hello\nc2,Bo,hi\n';

type Operation = { id: string; method: string; path: string; op: Record<string, any> };
type Sent = { method: string; url: string; contentType?: string; body?: string | FormData; headers: Headers };
type Finding = { operation: string; status: number; request: string; response: string };

const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    id: item[m].operationId,
    method: m.toUpperCase(),
    path,
    op: item[m],
  })),
);

const rng = new Rng(SEED);
const ids = new IdPool(doc);
const gen = new Generator(doc, rng, ids);
let h: Harness;
let owner: Headers;
let sent = 0;
const statuses = new Map<number, number>();
const findings: Finding[] = [];

const realLookup = dns.lookup;
/** Only loopback names resolve while fuzzing: generated URLs must never reach the network. */
const loopbackOnly = (() => {
  const refuse = (hostname: string) =>
    Object.assign(new Error(`fuzz: no network (${hostname})`), { code: 'ENOTFOUND' });
  return ((hostname: string, options: unknown, callback?: unknown) => {
    const done = (typeof options === 'function' ? options : callback) as (err: Error) => void;
    if (hostname === 'localhost' || hostname === '127.0.0.1')
      return (realLookup as any)(hostname, options, callback);
    process.nextTick(() => done(refuse(hostname)));
  }) as typeof dns.lookup;
})();
const realFetch = globalThis.fetch;

beforeAll(async () => {
  dns.lookup = loopbackOnly;
  syncBuiltinESMExports();
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return Promise.reject(new TypeError(`fuzz: no network (${url.hostname})`));
    }
    return realFetch(input, init);
  };
  h = await createHarness();
  // the top plan, so plan-gated handlers (ambient audio) run too
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
  owner = await h.as('OWNER');
  ids.add('/api/v1/workspaces', h.workspaceId);
  ids.add('/api/v1/organizations', h.organizationId);
});

afterAll(() => {
  dns.lookup = realLookup;
  syncBuiltinESMExports();
  globalThis.fetch = realFetch;
});

/** encodeURIComponent, lone surrogates made well-formed (only their UTF-8 bytes, in HOSTILE_RAW, can travel). */
const encode = (text: string) =>
  encodeURIComponent((text as unknown as { toWellFormed(): string }).toWellFormed());

const params = (op: Record<string, any>, where: string) =>
  ((op.parameters ?? []) as Schema[]).map((p) => gen.resolve(p)).filter((p) => p.in === where);

const pathOf = (operation: Operation, hostile: boolean) =>
  operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    if (hostile && rng.chance(0.6)) return rng.pick(HOSTILE_RAW);
    const known = ids.idsFor(name);
    return encodeURIComponent(known.length > 0 && rng.chance(0.85) ? rng.pick(known) : rng.uuid());
  });

const queryOf = (operation: Operation, hostile: boolean) => {
  const parts: string[] = [];
  for (const p of params(operation.op, 'query')) {
    if (!p.required && rng.chance(0.5)) continue;
    const value = gen.valid(p.schema, p.name);
    for (const v of [value].flat()) parts.push(`${p.name}=${encode(String(v))}`);
  }
  if (hostile) {
    const names = params(operation.op, 'query').map((p) => p.name as string);
    const name = names.length > 0 && rng.chance(0.8) ? rng.pick(names) : 'unknown_param';
    parts.push(
      rng.pick([
        `${name}=${encode(String(gen.valid(params(operation.op, 'query').find((p) => p.name === name)?.schema, name)))}%00`,
        `${name}=${rng.pick(HOSTILE_RAW)}`,
        `${name}=${encode(rng.pick(HOSTILE_STRINGS))}`,
        `${name}[]=a&${name}[]=b`,
        `${name}[a][b][c][d][e][f][g]=1`,
        `${name}=1&${name}=2`,
        `${name}`,
        `${name}=${'x'.repeat(20_000)}`,
      ]),
    );
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
};

const headersOf = (operation: Operation, hostile: boolean): Headers => {
  const headers: Headers = { ...owner };
  for (const p of params(operation.op, 'header')) {
    if (p.name === 'X-Workspace-Id' && (hostile || rng.chance(0.2))) {
      headers[p.name] =
        hostile && rng.chance(0.5) ? rng.pick(['nope', '', rng.uuid(), 'x'.repeat(300)]) : h.workspaceId;
    }
    if (p.name === 'Idempotency-Key' && rng.chance(0.3)) {
      headers[p.name] = hostile
        ? rng.pick(['', 'x'.repeat(300), `k-${rng.int(1, 3)}`])
        : `fuzz-${rng.uuid()}`;
    }
  }
  return headers;
};

/** A generated multipart form: binary properties get a small CSV or WAV file. */
const formOf = (schema: Schema, hostile: boolean): FormData => {
  const s = gen.resolve(schema);
  const form = new FormData();
  const file = () =>
    rng.pick([
      new File([CSV], 'calls.csv', { type: 'text/csv' }),
      new File([WAV], 'call.wav', { type: 'audio/wav' }),
      new File([new Uint8Array(0)], 'empty.bin'),
    ]);
  for (const [key, raw] of Object.entries<Schema>(s.properties ?? {})) {
    const prop = gen.resolve(raw);
    const binary = prop.format === 'binary' || gen.resolve(prop.items).format === 'binary';
    if (binary) {
      if (rng.chance(0.7))
        for (let i = prop.type === 'array' ? rng.int(1, 2) : 1; i > 0; i--) form.append(key, file());
    } else if (rng.chance(0.6)) {
      const valid = String(gen.valid(prop, key));
      const value =
        !hostile || rng.chance(0.4)
          ? valid
          : rng.chance(0.5)
            ? badText(rng, valid)
            : rng.pick(HOSTILE_STRINGS);
      form.append(key, value);
    }
  }
  if (hostile) form.append(rng.pick(['extra', 'file', 'dataset']), rng.pick(HOSTILE_STRINGS));
  return form;
};

/** One request for `operation`: valid when `kind` is 0, otherwise hostile in one way. */
const requestFor = (operation: Operation, kind: number): Sent => {
  const hostile = kind > 0;
  // `text`: a valid body but for one string holding U+0000 or a lone surrogate
  const part = hostile ? rng.pick(['path', 'query', 'headers', 'body', 'text', 'text', 'raw']) : 'none';
  const url = `${h.url}${pathOf(operation, part === 'path')}${queryOf(operation, part === 'query')}`;
  const headers = headersOf(operation, part === 'headers');
  const content = operation.op.requestBody?.content as Record<string, { schema: Schema }> | undefined;
  if (!content) {
    if (part === 'body' || part === 'text' || part === 'raw') {
      const raw = hostileRawBody(rng, '{}');
      return { method: operation.method, url, headers, contentType: raw.contentType, body: raw.body };
    }
    return { method: operation.method, url, headers };
  }
  const multipart = content['multipart/form-data'];
  if (multipart) {
    if (part === 'raw') {
      const raw = hostileMultipart(rng);
      return { method: operation.method, url, headers, contentType: raw.contentType, body: raw.body };
    }
    return { method: operation.method, url, headers, body: formOf(multipart.schema, part !== 'none') };
  }
  const schema = Object.values(content)[0]!.schema;
  const valid = gen.valid(schema);
  const json = JSON.stringify(valid) ?? 'null';
  if (part === 'raw') {
    const raw = hostileRawBody(rng, json.startsWith('{') ? json : '{}');
    return { method: operation.method, url, headers, contentType: raw.contentType, body: raw.body };
  }
  const body = part === 'body' || part === 'text' ? JSON.stringify(gen.mutate(valid, part === 'text')) : json;
  return { method: operation.method, url, headers, contentType: 'application/json', body };
};

const describeRequest = (r: Sent) =>
  `${r.method} ${r.url.slice(h.url.length, 300)} ${r.contentType ?? ''} ${
    typeof r.body === 'string' ? r.body.slice(0, 300) : r.body ? '[form]' : ''
  }`;

/** Sends one request and checks the answer; returns the parsed body of a 2xx. */
const send = async (operation: Operation, request: Sent): Promise<unknown> => {
  sent++;
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: request.method,
      headers: {
        ...request.headers,
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
      },
      body: request.body,
    });
  } catch (error) {
    // a request the client refuses to build (a header value) never reaches the server
    if (!(error instanceof TypeError && error.message === 'fetch failed')) return undefined;
    findings.push({
      operation: operation.id,
      status: 0,
      request: describeRequest(request),
      response: String(error.cause),
    });
    return undefined;
  }
  const text = await res.text().catch((error: unknown) => `<body cut: ${error}>`);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {}
  const upstream = res.status === 502 && body?.code === 'provider_error';
  const problem = /^application\/problem\+json/.test(res.headers.get('content-type') ?? '');
  if (
    (res.status >= 500 && !upstream) ||
    (res.status >= 400 && !(problem && typeof body?.code === 'string'))
  ) {
    findings.push({
      operation: operation.id,
      status: res.status,
      request: describeRequest(request),
      response: text.slice(0, 300),
    });
  }
  return res.ok ? body : undefined;
};

/** Ids in a 2xx answer, filed under the collection the request addressed. */
const collect = (operation: Operation, url: string, body: any) => {
  if (!body || typeof body !== 'object' || /\}$/.test(operation.path)) return;
  const collection = new URL(url).pathname;
  ids.add(collection, body.id);
  if (Array.isArray(body.items)) for (const item of body.items) ids.add(collection, item?.id);
};

describe(`fuzzing every operation of contract/openapi.json (seed ${SEED})`, () => {
  it('no input makes the server answer 5xx, and every error is problem+json', async () => {
    // seeding: lists and creates with valid input, twice, so ids exist for the later requests
    const seeders = operations.filter(
      (o) => !o.path.includes('{') && (o.method === 'GET' || o.method === 'POST'),
    );
    for (let pass = 0; pass < 2; pass++) {
      for (const operation of seeders) {
        for (let i = 0; i < 2; i++) {
          const request = requestFor(operation, 0);
          collect(operation, request.url, await send(operation, request));
        }
      }
    }
    // fuzzing: deletes last, so the ids stay usable while everything else runs
    const ordered = [
      ...operations.filter((o) => o.method !== 'DELETE'),
      ...operations.filter((o) => o.method === 'DELETE'),
    ];
    for (const operation of ordered) {
      for (let i = 0; i < CASES; i++) {
        const request = requestFor(operation, i % 3 === 0 ? 0 : 1);
        collect(operation, request.url, await send(operation, request));
      }
    }
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    // biome-ignore lint/suspicious/noConsole: the CI log shows the seed and the request count
    console.log(
      `fuzz: seed ${SEED}, ${sent} requests over ${operations.length} operations, ${ids.size} real ids; ` +
        `statuses ${summary.join(' ')}; findings ${findings.length} (replay: FUZZ_SEED=${SEED})`,
    );
    expect(findings).toEqual([]);
  }, 600_000);
});
