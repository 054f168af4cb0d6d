import { ROLES, type Role } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { ROLE_RANK } from '../src/context.js';
import type { Harness, Reply, Tenant } from './harness.js';

export type AccessRule = {
  /** `METHOD /path` as the contract names it. */
  route: string;
  /** The least role allowed. */
  minRole: Role;
  /**
   * Builds a request against resources of `tenant` (create what the path needs). For the
   * cross-tenant check it is called with another organization.
   */
  request: (tenant: Tenant) => Promise<{ path: string; body?: unknown }>;
  /** The path names a resource of the tenant: another organization's id must be 404. */
  scoped?: boolean;
};

export const expectProblem = (reply: Reply, status: number, code?: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  expect(reply.body.status).toBe(status);
  expect(reply.body.request_id).toBe(reply.headers.get('x-request-id'));
  if (code) expect(reply.body.code).toBe(code);
};

/**
 * The access rules every authenticated route obeys, written once: no or bad credentials 401,
 * each role below the minimum 403, another organization's id 404, a foreign workspace 404.
 */
export const describeAccessRules = (harness: () => Harness, rules: AccessRule[]) => {
  describe.each(rules)('access rules: $route', (rule) => {
    const method = rule.route.split(' ')[0]!;

    it('is 401 without credentials, with a bad token and with an unknown API key', async () => {
      const h = harness();
      const { path, body } = await rule.request(h);
      expectProblem(await h.request(method, path, { body }), 401, 'unauthenticated');
      expectProblem(await h.request(method, path, { body, headers: { authorization: 'Bearer nope' } }), 401);
      const fakeKey = { 'x-api-key': `ve_live_${'a'.repeat(38)}` };
      expectProblem(await h.request(method, path, { body, headers: fakeKey }), 401);
    });

    const below = ROLES.filter((role) => ROLE_RANK[role] < ROLE_RANK[rule.minRole]);
    if (below.length > 0) {
      it.each(below)('is 403 for %s', async (role) => {
        const h = harness();
        const { path, body } = await rule.request(h);
        expectProblem(await h.request(method, path, { body, headers: await h.as(role) }), 403, 'forbidden');
      });
    }

    it(`is allowed for ${rule.minRole}`, async () => {
      const h = harness();
      const { path, body } = await rule.request(h);
      const reply = await h.request(method, path, { body, headers: await h.as(rule.minRole) });
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(400);
    });

    it('is 404 for a workspace of another organization', async () => {
      const h = harness();
      const other = await h.createTenant();
      const { path, body } = await rule.request(h);
      const headers = { ...(await h.as('OWNER')), 'x-workspace-id': other.workspaceId };
      expectProblem(await h.request(method, path, { body, headers }), 404, 'not_found');
    });

    if (rule.scoped) {
      it("is 404 for another organization's resource", async () => {
        const h = harness();
        const other = await h.createTenant();
        const { path, body } = await rule.request(other);
        expectProblem(
          await h.request(method, path, { body, headers: await h.as('OWNER') }),
          404,
          'not_found',
        );
      });
    }
  });
};
