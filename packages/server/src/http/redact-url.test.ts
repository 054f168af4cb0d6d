import { isAppRoute } from '@ts-rest/core';
import { contract } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { isSecretName, REDACTED, redactUrl } from './redact-url.js';

describe('isSecretName', () => {
  it.each([
    'token',
    'access_token',
    'refreshToken',
    'api_key',
    'apiKey',
    'X-Amz-Signature',
    'X-Amz-Credential',
    'sig',
    'code',
    'client_secret',
    'password',
    'session',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));
  it.each([
    'q',
    'page',
    'api_key_id',
    'tag_id',
    'status',
    'monkey',
    'keyword',
    'codec',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('redactUrl', () => {
  it('redacts every secret path parameter of the contract, so a new route is covered without a change', () => {
    const routes = Object.values(contract).flatMap((area) => Object.values(area).filter(isAppRoute));
    const secretRoutes = routes.filter(
      (r) => /:(\w*(token|secret|key|code)\w*)/i.test(r.path) && !/_id\b/.test(r.path.split('/').at(-1)!),
    );
    expect(secretRoutes.map((r) => r.path)).toContain('/api/v1/auth/invitations/preview/:token');
    for (const route of secretRoutes) {
      const url = route.path.replace(/:(\w+)/g, (_, name: string) =>
        isSecretName(name) ? 'SECRET' : 'an-id',
      );
      expect(redactUrl(url)).not.toContain('SECRET');
      expect(redactUrl(url)).toContain(REDACTED);
    }
  });

  it('matches a secret route loosely: any case, escaped letters, a mount prefix, a trailing part', () => {
    for (const url of [
      '/host/API/V1/Auth/Invitations/Preview/SECRET',
      '/api/v1/auth/invitations/pr%65view/SECRET/extra',
    ]) {
      expect(redactUrl(url)).not.toContain('SECRET');
    }
    expect(redactUrl('/api/v1/auth/invitations/SECRET')).toBe('/api/v1/auth/invitations/SECRET');
  });

  it('leaves a path without secrets and ordinary query parameters as they are', () => {
    const url = '/api/v1/api-keys/0c9a?page=2&q=a%20b&flag&api_key_id=3';
    expect(redactUrl(url)).toBe(url);
  });

  it('drops the value of a parameter whose name cannot be decoded', () => {
    expect(redactUrl('/x?%E0%A4%A=v&ok=1')).toBe(`/x?%E0%A4%A=${REDACTED}&ok=1`);
  });

  it('redacts every repetition and bracketed form of a secret parameter', () => {
    expect(redactUrl('/x?token=a&token=b&auth[token]=c')).toBe(
      `/x?token=${REDACTED}&token=${REDACTED}&auth[token]=${REDACTED}`,
    );
  });
});
