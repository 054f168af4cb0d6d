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
