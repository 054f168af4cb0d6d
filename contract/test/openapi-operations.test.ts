import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLIC_OPERATIONS, SPEC_OPERATIONS } from './routes.js';

const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

type Response = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  security: unknown[];
  deprecated?: boolean;
  parameters: Array<{ in?: string; name?: string; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { format?: string }> } }> };
  responses: Record<string, Response>;
};

const operations: Array<{ method: string; path: string; op: Operation }> = Object.entries<
  Record<string, Operation>
>(committed.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);
const operationOf = (method: string, path: string) =>
  committed.paths[path][method.toLowerCase()] as Operation;
const refs = (op: Operation) => op.parameters.map((p) => p.$ref?.split('/').pop()).filter(Boolean);
const ALL_KEYS = [{ bearerAuth: [] }, { apiKey: [] }, { serviceApiKey: [] }];
const INTERACTIVE = ['POST /api/v1/auth/generate-key', 'POST /api/v1/auth/switch-org'];

describe('every operation', () => {
  it.each(operations)('$method $path has an id, a tag, a summary and a sentence of description', ({ op }) => {
    expect(op.operationId).toMatch(/^\w+\.\w+$/);
    expect(op.summary).toBeTruthy();
    expect(op.description).toMatch(/^[A-Z].*\.$/);
  });

  it.each(operations)('$method $path sends X-Request-Id with every response', ({ op }) => {
    for (const [status, response] of Object.entries(op.responses)) {
      const resolved: Response = response.$ref
        ? committed.components.responses[response.$ref.split('/').pop()!]
        : response;
      expect(resolved.headers?.['X-Request-Id'], status).toEqual({ $ref: '#/components/headers/RequestId' });
    }
  });

  it.each(operations)('$method $path takes Idempotency-Key only if an authenticated POST', ({
    method,
    op,
  }) => {
    const expected = method === 'POST' && op.security.length > 0;
    expect(refs(op).includes('IdempotencyKey')).toBe(expected);
    const success = Object.entries(op.responses).filter(([s]) => Number(s) < 300);
    for (const [, response] of success)
      expect('Idempotent-Replayed' in (response.headers ?? {})).toBe(expected);
  });

  it.each(operations)('$method $path lists 400 and 415 only with a request body', ({ op }) => {
    const json = op.requestBody?.content['application/json'] !== undefined;
    const upload = op.requestBody?.content['multipart/form-data'] !== undefined;
    expect('400' in op.responses).toBe(json);
    expect('415' in op.responses).toBe(json || upload);
  });

  it.each(operations)('$method $path never lists credentials as header parameters', ({ op }) => {
    const names = op.parameters.filter((p) => p.in === 'header').map((p) => p.name?.toLowerCase());
    for (const credential of ['authorization', 'x-api-key', 'x-service-api-key']) {
      expect(names).not.toContain(credential);
    }
  });
});

describe('security and workspaces', () => {
  it.each(SPEC_OPERATIONS)('$method $path is secured unless public', ({ method, path }) => {
    const op = operationOf(method, path);
    const key = `${method} ${path}`;
    if (PUBLIC_OPERATIONS.has(key)) expect(op.security).toEqual([]);
    else if (INTERACTIVE.includes(key)) expect(op.security).toEqual([{ bearerAuth: [] }]);
    else expect(op.security).toEqual(ALL_KEYS);
  });

  it('takes X-Workspace-Id only where data lives in a workspace', () => {
    expect(refs(operationOf('GET', '/api/v1/metrics'))).toContain('WorkspaceId');
    expect(refs(operationOf('GET', '/api/v1/auth/me'))).toContain('WorkspaceId');
    for (const [method, path] of [
      ['POST', '/api/v1/auth/login'],
      ['POST', '/api/v1/auth/generate-key'],
      ['POST', '/api/v1/auth/switch-org'],
      ['GET', '/api/v1/aiproviders/{aiprovider_id}'],
      ['GET', '/api/v1/workspaces'],
      ['GET', '/api/v1/api-keys'],
    ] as const) {
      expect(refs(operationOf(method, path)), `${method} ${path}`).not.toContain('WorkspaceId');
    }
  });

  it('answers 401, 403 and 404 on secured operations only, but for the checks of public ones', () => {
    expect(Object.keys(operationOf('GET', '/api/v1/auth/config').responses)).toEqual(['200', '500']);
    expect(operationOf('POST', '/api/v1/auth/login').responses).toHaveProperty('401');
    expect(operationOf('POST', '/api/v1/auth/login').responses).not.toHaveProperty('403');
    expect(operationOf('GET', '/api/v1/metrics').responses).toHaveProperty('403');
  });
});

describe('particular operations', () => {
  it('marks POST /api/v1/evaluators/bulk deprecated with Deprecation and Link', () => {
    const op = operationOf('POST', '/api/v1/evaluators/bulk');
    expect(op.deprecated).toBe(true);
    expect(Object.keys(op.responses['201']!.headers ?? {})).toEqual(
      expect.arrayContaining(['Deprecation', 'Link']),
    );
  });

  it('answers 429 with Retry-After on the rate-limited and AI routes only', () => {
    const limited = operations.filter(({ op }) => '429' in op.responses).map(({ op }) => op.operationId);
    expect(limited.sort()).toEqual([
      'auth.login',
      'auth.refresh',
      'auth.signup',
      'invitations.accept',
      'metrics.generate',
      'metrics.parseBulk',
    ]);
    expect(committed.components.responses.TooManyRequests.headers).toHaveProperty('Retry-After');
  });

  it('documents errors as application/problem+json', () => {
    const response = committed.components.responses.UnprocessableEntity;
    expect(response.content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    });
    expect(operationOf('POST', '/api/v1/metrics').responses['422']).toEqual({
      $ref: '#/components/responses/UnprocessableEntity',
    });
  });

  it('documents ambient audio upload as multipart with a binary file', () => {
    const op = operationOf('POST', '/api/v1/personas/{persona_id}/ambient-audio');
    expect(op.requestBody?.content['multipart/form-data']?.schema.properties?.file?.format).toBe('binary');
  });
});
