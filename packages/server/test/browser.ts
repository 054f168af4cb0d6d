import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Debian's chromium package, driven by playwright-core: nothing downloads a browser. `.ci/run`
 * installs the package when it is missing, so CI never skips a browser test; elsewhere a missing
 * browser skips them (with the reason in their title).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
export const skipBrowser = !available && process.env.CI !== 'true';

/** The title of a browser test file, saying why it is skipped when it is. */
export const browserTitle = (title: string): string =>
  skipBrowser
    ? `${title}: SKIPPED, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`
    : title;

/** Headless Chromium with the flags a closed network needs (no background connections). */
export const launchChromium = (): Promise<Browser> => {
  if (!available)
    throw new Error(`CI=true but no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
};

/** Where screenshots are kept: `.test-results/screenshots` at the workspace root (CI's artifacts). */
const SCREENSHOTS = fileURLToPath(new URL('../../../.test-results/screenshots/', import.meta.url));

export const screenshot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

/**
 * Runs axe-core on the page and fails on any serious or critical violation, listing each with the
 * elements it found it on.
 */
export const expectAccessible = async (page: Page, name: string): Promise<void> => {
  const { source } = await import('axe-core');
  // evaluated through the DevTools protocol: the page's CSP (rightly) refuses an inline script
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    type Axe = { run(context: Document, options: object): Promise<{ violations: unknown[] }> };
    const result = await (window as unknown as { axe: Axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return (
      result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>
    ).map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${name}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
};
