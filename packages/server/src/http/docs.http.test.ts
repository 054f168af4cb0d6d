import { createOpenApiDocument } from '@voice-eval/contract/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('API reference', () => {
  it('serves the OpenAPI document', async () => {
    const reply = await h.request('GET', '/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toMatch(/^3\./);
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(createOpenApiDocument())));
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('serves /docs and every asset it references from this server', async () => {
    const page = await fetch(`${h.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset, 'no CDN').not.toMatch(/^https?:|^\/\//);
      const res = await fetch(new URL(asset, `${h.url}/docs`));
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
  });
});

describe('HTTPS-only headers', () => {
  // behind a proxy that terminates TLS: X-Forwarded-Proto says whether the client used HTTPS
  let proxied: Harness;
  beforeAll(async () => {
    proxied = await createHarness({ trustProxy: 'loopback' });
  });
  const headersOf = async (base: string, path: string, proto?: string) =>
    (await fetch(`${base}${path}`, { headers: proto ? { 'x-forwarded-proto': proto } : {} })).headers;

  it('sends neither HSTS nor upgrade-insecure-requests over plain HTTP', async () => {
    for (const [base, proto] of [
      [h.url, undefined],
      [h.url, 'https'], // trust proxy off: the header is not believed
      [proxied.url, undefined],
      [proxied.url, 'http'],
    ] as const) {
      for (const path of ['/docs', '/api/v1/auth/config']) {
        const headers = await headersOf(base, path, proto);
        expect(headers.get('strict-transport-security'), `${path} ${proto}`).toBeNull();
        expect(headers.get('content-security-policy'), `${path} ${proto}`).not.toContain(
          'upgrade-insecure-requests',
        );
      }
    }
    // the page keeps the rest of its policy
    const page = await headersOf(h.url, '/docs');
    expect(page.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.get('cross-origin-opener-policy')).toBeNull();
  });

  it('sends both when the request came over HTTPS through a trusted proxy', async () => {
    const page = await headersOf(proxied.url, '/docs', 'https');
    expect(page.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(page.get('content-security-policy')).toContain('upgrade-insecure-requests');
    expect(page.get('cross-origin-opener-policy')).toBe('same-origin');
    const api = await headersOf(proxied.url, '/api/v1/auth/config', 'https');
    expect(api.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(api.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });
});
