import { readFileSync, statSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../src/openapi.js';
import { flattenRoutes } from './routes.js';

const FILE = new URL('../openapi.json', import.meta.url);
const committed = JSON.parse(readFileSync(FILE, 'utf8'));
type Schema = Record<string, unknown>;

/** Every schema object of the document, wherever it is. */
const walk = (node: unknown, visit: (schema: Schema) => void): void => {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) visit(node as Schema);
  for (const child of Object.values(node)) walk(child, visit);
};

describe('contract/openapi.json', () => {
  it('is up to date with the contract (run `pnpm openapi` to refresh it)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
  });

  it('is the same document on every run', () => {
    expect(JSON.stringify(createOpenApiDocument())).toBe(JSON.stringify(createOpenApiDocument()));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(committed.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(committed))).resolves.toBeTruthy();
  });

  // about 4 KB an operation (pretty-printed, each with its problem responses): a sudden jump means
  // a schema is inlined where a component should be referenced
  it('stays under 700 KB', () => {
    expect(statSync(FILE).size).toBeLessThan(700 * 1024);
  });

  it('has one operation per route', () => {
    const operations = Object.values<Schema>(committed.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(flattenRoutes().length);
  });

  it('names resources in components.schemas and refers to them', () => {
    const schemas = committed.components.schemas;
    for (const name of ['Metric', 'Agent', 'SuiteRun', 'Problem', 'MetricCreateBody', 'MetricType']) {
      expect(schemas).toHaveProperty(name);
    }
    const get = committed.paths['/api/v1/metrics/{metric_id}'].get;
    expect(get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Metric',
    });
    const refs = new Set<string>();
    walk(committed, (s) => typeof s.$ref === 'string' && refs.add(s.$ref));
    for (const ref of refs) {
      const [, , section, name] = ref.split('/');
      expect(committed.components[section!], ref).toHaveProperty(name!);
    }
  });

  it('expresses null as a type (OpenAPI 3.1), never with `nullable`', () => {
    walk(committed, (s) => expect(s).not.toHaveProperty('nullable'));
    const metric = committed.components.schemas.Metric.properties;
    expect(metric.selection_mode).toEqual({
      anyOf: [{ $ref: '#/components/schemas/SelectionMode' }, { type: 'null' }],
    });
    expect(metric.workspace_id).toEqual({ anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] });
  });

  it('writes exclusive bounds as numbers (JSON Schema 2020-12)', () => {
    walk(committed, (s) => {
      if ('exclusiveMinimum' in s) expect(typeof s.exclusiveMinimum).toBe('number');
      if ('exclusiveMaximum' in s) expect(typeof s.exclusiveMaximum).toBe('number');
    });
  });

  it('types page, page_size and row_limit as integers with ranges and integer defaults', () => {
    const param = (path: string, name: string) =>
      committed.paths[path].get.parameters.find((p: { name?: string }) => p.name === name)?.schema;
    expect(param('/api/v1/metrics', 'page')).toEqual({ type: 'integer', minimum: 1, default: 1 });
    expect(param('/api/v1/metrics', 'page_size')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
    });
    expect(param('/api/v1/call-imports/{call_import_id}', 'row_limit')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 5000,
      default: 100,
    });
    expect(param('/api/v1/api-keys', 'include_revoked')).toEqual({ type: 'boolean', default: false });
  });

  it('defines a described tag for every tag an operation uses', () => {
    const defined = new Map(committed.tags.map((t: { name: string; description: string }) => [t.name, t]));
    for (const item of Object.values<Record<string, { tags: string[] }>>(committed.paths)) {
      for (const op of Object.values(item)) {
        expect(op.tags).toHaveLength(1);
        expect(defined.get(op.tags[0]!)).toMatchObject({ description: expect.any(String) });
      }
    }
  });

  it("documents a suite run's console_url as a nullable string that older servers leave out", () => {
    const run = committed.components.schemas.SuiteRun;
    expect(run.properties.console_url).toEqual({ type: ['string', 'null'], default: null });
    expect(run.required).not.toContain('console_url');
    expect(run.required).toContain('id');
  });

  it('lets a newer server add fields: objects do not forbid other properties unless strict', () => {
    expect(committed.components.schemas.Metric).not.toHaveProperty('additionalProperties');
    expect(committed.components.schemas.Agent).not.toHaveProperty('additionalProperties');
  });
});
