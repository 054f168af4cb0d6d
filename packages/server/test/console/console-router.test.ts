import express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { createConsoleRouter } from '../../src/http/console.js';
import { createHarness, type Harness } from '../harness.js';
import { ensureConsoleBuild } from './console-build.js';

/** How the server serves the console, over HTTP: the page, its assets, its headers, its base path. */

let h: Harness;
let assetPath: string;
beforeAll(async () => {
  await ensureConsoleBuild();
  h = await createHarness({ workerConcurrency: 0 });
  const page = await (await fetch(`${h.url}/console/`)).text();
  assetPath = /src="\.\/(assets\/[^"]+\.js)"/.exec(page)?.[1] ?? 'missing';
}, 120_000);

describe('the console router', () => {
  it('serves the page at any path under /console, based there, never cached, under a strict CSP', async () => {
    for (const path of ['/console/', '/console/runs', '/console/calls/x?import=y&t=3']) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain('media-src');
      expect(csp).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain('<base href="/console/">');
      expect(html).toContain('<meta name="voice-eval-api" content="/">');
    }
  });

  it('redirects /console to /console/ with its query', async () => {
    const res = await fetch(`${h.url}/console?x=1`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/console/?x=1');
  });

  it('serves hashed assets for a year, immutable; an unknown asset is a 404 problem', async () => {
    const asset = await fetch(`${h.url}/console/${assetPath}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await fetch(`${h.url}/console/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('bases the page where a host app mounts it, with the API where the host says', async () => {
    const host = express();
    host.use('/voice', h.server.app);
    host.use('/admin/evals', createConsoleRouter({ apiPath: '/voice/' }));
    const server = host.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const inApp = await (await fetch(`${origin}/voice/console/runs`)).text();
      expect(inApp).toContain('<base href="/voice/console/">');
      expect(inApp).toContain('<meta name="voice-eval-api" content="/voice/">');
      const own = await (await fetch(`${origin}/admin/evals/runs`)).text();
      expect(own).toContain('<base href="/admin/evals/">');
      expect(own).toContain('<meta name="voice-eval-api" content="/voice/">');
    } finally {
      server.close();
    }
  });

  it('is not served when the console is turned off', async () => {
    const off = await createHarness({ workerConcurrency: 0, console: false });
    const res = await fetch(`${off.url}/console/runs`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
