import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';

/** A request and its response as they crossed the wire. */
export type Exchange = {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: string;
};

type Json = Record<string, any>;

// a CommonJS module whose default export TypeScript (NodeNext) types as the module object
const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;

/** The published document, as a user of `@voice-eval/contract/openapi.json` reads it. */
export const readOpenApiDocument = (): Json =>
  JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@voice-eval/contract/openapi.json'), 'utf8'),
  );

/**
 * The document's schemas with every object closed (`additionalProperties: false`), so a field the
 * server sends but the document does not list fails. The published document leaves objects open
 * for clients: a newer server may add fields.
 */
const closeObjects = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closeObjects(v)]));
  if (copy.type === 'object' && copy.properties && !('additionalProperties' in copy)) {
    copy.additionalProperties = false;
  }
  return copy;
};

const pointer = (...segments: string[]) =>
  segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** `/api/v1/metrics/{metric_id}` as a pattern; literal paths sort before templated ones. */
const templates = (paths: Json) =>
  Object.keys(paths)
    .map((path) => ({
      path,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);

/** Follows a local `$ref` (`#/components/responses/NotFound`) to what it names. */
const resolveIn =
  (document: Json) =>
  (node: Json): Json =>
    typeof node.$ref === 'string'
      ? resolveIn(document)(
          node.$ref
            .split('/')
            .slice(1)
            .reduce((n: Json, k: string) => n[k], document),
        )
      : node;

/**
 * Checks exchanges against the OpenAPI document with Ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1): the operation exists, the status is documented, required headers are present,
 * the content type is the documented one and the body matches its schema.
 */
export const createOpenApiValidator = (document: Json = readOpenApiDocument()) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ ...(closeObjects(document) as Json), $id: 'openapi.json' });
  const byPath = templates(document.paths);
  const resolve = resolveIn(document);

  /** Where the body schema of a response is: in `components.responses`, or in the operation. */
  const schemaAt = (path: string, method: string, status: string, contentType: string) => {
    const documented = document.paths[path][method].responses[status];
    const location = documented.$ref
      ? ['components', 'responses', documented.$ref.split('/').pop()]
      : ['paths', path, method, 'responses', status];
    return ajv.getSchema(`openapi.json#/${pointer(...location, 'content', contentType, 'schema')}`)!;
  };

  const checkBody = (
    exchange: Exchange,
    response: Json,
    at: (contentType: string) => ReturnType<typeof schemaAt>,
  ) => {
    if (!response.content) return exchange.body === '' ? [] : ['a body where the document has none'];
    const contentType = exchange.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    if (!(contentType in response.content)) {
      return [`content type ${contentType} is not one of ${Object.keys(response.content).join(', ')}`];
    }
    // bytes (a recording): the documented media type is the check
    if (response.content[contentType].schema?.format === 'binary') return [];
    const check = at(contentType);
    if (check(JSON.parse(exchange.body))) return [];
    return (check.errors ?? []).map((e) => `body${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
  };

  /** The operation id the exchange answered, and everything wrong with it. */
  const validate = (exchange: Exchange): { operationId?: string; problems: string[] } => {
    const { pathname } = new URL(exchange.url);
    const method = exchange.method.toLowerCase();
    const template = byPath.find((t) => t.pattern.test(pathname) && document.paths[t.path][method]);
    if (!template) return { problems: ['no such operation in the document'] };
    const { operationId, responses } = document.paths[template.path][method];
    const status = String(exchange.status);
    if (!responses[status]) return { operationId, problems: [`status ${status} is not documented`] };
    const response = resolve(responses[status]);
    const missing = Object.entries<Json>(response.headers ?? {})
      .filter(([name, header]) => resolve(header).required && !exchange.headers.has(name))
      .map(([name]) => `header ${name} is missing`);
    const at = (contentType: string) => schemaAt(template.path, method, status, contentType);
    return { operationId, problems: [...missing, ...checkBody(exchange, response, at)] };
  };

  const operationIds: string[] = Object.values<Json>(document.paths).flatMap((item) =>
    Object.values<Json>(item).map((op) => op.operationId),
  );
  return { validate, operationIds };
};

/**
 * A `fetch` that records every exchange with the API (`/api/v1/...`): give it to SDK clients, then
 * validate `exchanges`.
 */
export const createRecorder = () => {
  const exchanges: Exchange[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : String(input);
    const method = init?.method ?? request?.method ?? 'GET';
    const response = await globalThis.fetch(input, init);
    if (new URL(url).pathname.startsWith('/api/v1/')) {
      const body = await response.clone().text();
      exchanges.push({ method, url, status: response.status, headers: response.headers, body });
    }
    return response;
  };
  return { fetch, exchanges };
};
