import { initContract } from '@ts-rest/core';
import { BaseHeadersSchema, contract } from '@voice-eval/contract';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { withHeaderChecks } from './header-check.js';

const c = initContract();
const ping = { method: 'GET', path: '/ping', responses: { 200: c.noBody() } } as const;

/** What ts-rest hands the handler: the parsed headers merged over the request's. */
const asTsRest = (schema: z.ZodTypeAny, headers: Record<string, unknown>) => {
  const result = schema.safeParse(headers);
  return result.success
    ? { success: true, data: { ...headers, ...result.data } }
    : { success: false, issues: result.error.issues };
};

describe('withHeaderChecks', () => {
  const checked = withHeaderChecks(contract);

  it.each<[string, Record<string, unknown>]>([
    ['no declared header', { host: 'a', 'user-agent': 'b' }],
    [
      'every declared header',
      {
        authorization: 'Bearer t',
        'x-api-key': 'k',
        'x-workspace-id': 'w',
        'idempotency-key': 'i'.repeat(255),
      },
    ],
    ['an idempotency key one over its maximum', { 'idempotency-key': 'i'.repeat(256) }],
    ['a header given twice (an array)', { 'x-api-key': ['a', 'b'] }],
    ['a number', { 'x-workspace-id': 7 }],
  ])('gives what zod gives for %s', (_, headers) => {
    const route = checked.workspaces.get;
    expect(route.headers).not.toBe(BaseHeadersSchema);
    expect(asTsRest(route.headers as z.ZodTypeAny, headers)).toEqual(asTsRest(BaseHeadersSchema, headers));
  });

  it('runs zod only for headers it does not accept at once', () => {
    const zod = vi.spyOn(BaseHeadersSchema, 'safeParse');
    const headers = checked.workspaces.get.headers as z.ZodTypeAny;
    headers.safeParse({ host: 'a', 'x-api-key': 'k' });
    expect(zod).not.toHaveBeenCalled();
    headers.safeParse({ 'idempotency-key': 'i'.repeat(256) });
    expect(zod).toHaveBeenCalledTimes(1);
    zod.mockRestore();
  });

  it('leaves a header schema that only zod can check, and the contract, as they are', () => {
    const pattern = z.object({ 'x-tenant': z.string().regex(/^t_/).optional() });
    const required = z.object({ 'x-tenant': z.string() });
    const router = c.router({ a: { ...ping, headers: pattern }, b: { ...ping, headers: required } });
    const result = withHeaderChecks(router);
    expect(result.a.headers).toBe(pattern);
    expect(result.b.headers).toBe(required);
    expect(contract.workspaces.get.headers).toBe(BaseHeadersSchema);
  });
});
