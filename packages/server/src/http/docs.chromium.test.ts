import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness.js';

// Debian's chromium package; .ci/run installs it when missing, so CI never skips this file
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
const skip = !available && !inCi;

/** A host name that is not localhost (so no browser treats it as a secure context) but is loopback. */
const HOST = 'docs.test';

const TITLE = skip
  ? `API reference page in Chromium: SKIPPED, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`
  : 'API reference page in Chromium over plain HTTP';

describe.skipIf(skip)(TITLE, () => {
  let h: Harness;
  let browser: Browser;
  beforeAll(async () => {
    h = await createHarness();
    if (!available)
      throw new Error(`CI=true but no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1`],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it(`renders every operation on http://${HOST}, without console errors, all traffic on loopback`, async () => {
    const origin = h.url.replace('localhost', HOST);
    const page = await browser.newPage();
    const problems: string[] = [];
    const requested: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (request) =>
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on('request', (request) => requested.push(request.url()));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
    });

    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    // swagger-ui renders one .opblock per operation once it has fetched and parsed openapi.json
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    const operations = await page.locator('.opblock').count();
    expect(operations).toBeGreaterThan(50);
    expect(await page.locator('.opblock-summary-path', { hasText: '/api/v1/auth/signup' }).count()).toBe(1);

    expect(problems).toEqual([]);
    expect(requested.length).toBeGreaterThanOrEqual(4);
    for (const url of requested) {
      // data: URLs (inline images of swagger-ui's stylesheet) never leave the browser
      if (url.startsWith('data:')) continue;
      expect(new URL(url).origin, url).toBe(origin);
    }
    await page.close();
  }, 180_000);
});
