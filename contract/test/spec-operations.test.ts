import { describe, expect, it } from 'vitest';
import { flattenRoutes, PUBLIC_OPERATIONS, SPEC_OPERATIONS } from './routes.js';

const routes = flattenRoutes();

describe('the 27 operations of the service interface', () => {
  it('lists 27 operations', () => {
    expect(SPEC_OPERATIONS).toHaveLength(27);
  });

  it.each(SPEC_OPERATIONS)('$method $path exists exactly once', ({ method, contractPath }) => {
    const matches = routes.filter(([, r]) => r.method === method && r.path === contractPath);
    expect(matches).toHaveLength(1);
  });

  it.each(SPEC_OPERATIONS)('$method $path is public only if the spec says so', ({
    method,
    path,
    contractPath,
  }) => {
    const [, route] = routes.find(([, r]) => r.method === method && r.path === contractPath)!;
    const isPublic = (route.metadata as { public?: boolean } | undefined)?.public === true;
    expect(isPublic).toBe(PUBLIC_OPERATIONS.has(`${method} ${path}`));
  });
});

describe('every route', () => {
  it('has a unique method and path', () => {
    const keys = routes.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(routes)('%s lives under /api/v1 and has a summary', (_key, route) => {
    expect(route.path.startsWith('/api/v1/')).toBe(true);
    expect(route.summary).toBeTruthy();
  });

  it.each(routes)('%s declares lower-case header keys only', (_key, route) => {
    const shape = (route.headers as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    for (const key of Object.keys(shape)) expect(key).toBe(key.toLowerCase());
  });

  it.each(routes)('%s answers errors with the problem schema', (_key, route) => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 502]) {
      expect(Object.keys(route.responses)).toContain(String(status));
    }
  });

  it('declares static paths before parameterised paths of the same method', () => {
    for (const [i, [, a]] of routes.entries()) {
      for (const [, b] of routes.slice(i + 1)) {
        if (a.method !== b.method || !a.path.includes('/:')) continue;
        const pattern = new RegExp(`^${a.path.replace(/:[^/]+/g, '[^/]+')}$`);
        // a parameterised route declared first must not shadow a later static one
        expect(pattern.test(b.path) && !b.path.includes('/:'), `${a.path} shadows ${b.path}`).toBe(false);
      }
    }
  });
});
