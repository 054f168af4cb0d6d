import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../src/openapi.js';
import { PUBLIC_OPERATIONS, SPEC_OPERATIONS } from './routes.js';

const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
type Operation = {
  security?: unknown[];
  deprecated?: boolean;
  operationId?: string;
  parameters?: Array<{ in: string; name: string }>;
};
const operationOf = (method: string, path: string): Operation | undefined =>
  committed.paths[path]?.[method.toLowerCase()];

describe('contract/openapi.json', () => {
  it('is up to date with the contract (run `pnpm openapi` to refresh it)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
  });

  it('is a valid OpenAPI document', async () => {
    await expect(SwaggerParser.validate(structuredClone(committed))).resolves.toBeTruthy();
  });

  it.each(SPEC_OPERATIONS)('holds $method $path', ({ method, path }) => {
    expect(operationOf(method, path)?.operationId).toBeTruthy();
  });

  it.each(SPEC_OPERATIONS)('secures $method $path unless public', ({ method, path }) => {
    const security = operationOf(method, path)?.security;
    if (PUBLIC_OPERATIONS.has(`${method} ${path}`)) expect(security).toEqual([]);
    else expect(security).toEqual([{ bearerAuth: [] }, { apiKey: [] }, { serviceApiKey: [] }]);
  });

  it('never lists credentials as header parameters', () => {
    for (const item of Object.values<Record<string, Operation>>(committed.paths)) {
      for (const op of Object.values(item)) {
        const names = (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
        expect(names).not.toContain('authorization');
        expect(names).not.toContain('x-api-key');
      }
    }
  });

  it('marks POST /api/v1/evaluators/bulk deprecated', () => {
    expect(operationOf('POST', '/api/v1/evaluators/bulk')?.deprecated).toBe(true);
  });

  it('documents errors as application/problem+json', () => {
    const responses = committed.paths['/api/v1/metrics'].post.responses;
    expect(Object.keys(responses['422'].content)).toEqual(['application/problem+json']);
  });

  it('documents ambient audio upload as multipart with a binary file', () => {
    const body = operationOf('POST', '/api/v1/personas/{persona_id}/ambient-audio') as {
      requestBody?: {
        content: Record<string, { schema: { properties: Record<string, { format?: string }> } }>;
      };
    };
    expect(body.requestBody?.content['multipart/form-data']?.schema.properties.file?.format).toBe('binary');
  });
});
