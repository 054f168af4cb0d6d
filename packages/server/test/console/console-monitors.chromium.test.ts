import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Monitor, MonitorAlert, ProductionCall } from '@voice-eval/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeDouble } from '../../src/testing/judge.js';
import { browserTitle, expectAccessible, launchChromium, screenshot, skipBrowser } from '../browser.js';
import type { Harness, Headers } from '../harness.js';
import { createJudgeHarness } from '../judge-harness.js';
import { ensureConsoleBuild } from './console-build.js';

/**
 * The console's production calls and monitors in a real Chromium against the real server: two
 * agents, a boolean metric, a monitor with rules on each, production calls submitted through the
 * API (one whose transcript says FAIL, one whose recording is not audio), and a judge double as the
 * server's default LLM that fails the calls saying FAIL, so the per-call rule really fires.
 */

const PASSWORD = 'correct horse battery';

let h: Harness;
let judge: JudgeDouble;
let notAudio: Server;
let browser: Browser;
let context: BrowserContext;
let consoleUrl: string;
let member: Headers;
let orders: Monitor;
let billing: Monitor;
/** The submitted calls by external id. */
const calls = new Map<string, ProductionCall>();

/** A POST that must succeed, answering its body. */
const made = async (path: string, headers: Record<string, string>, body: unknown) => {
  const reply = await h.request('POST', path, { headers, body });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
};

const submit = async (body: Record<string, unknown>) => {
  const { production_call } = await made('/api/v1/production-calls', member, body);
  calls.set(production_call.external_call_id, production_call);
};

const turns = (caller: string) => [
  { role: 'agent', text: 'Thanks for calling, how can I help?', start_ms: 0, end_ms: 1800 },
  { role: 'user', text: caller, start_ms: 2200, end_ms: 4000 },
];

const alertsOf = async (monitorId: string): Promise<MonitorAlert[]> =>
  (await h.request('GET', `/api/v1/monitors/${monitorId}/alerts`, { headers: member })).body.items;

const monitorOf = async (monitorId: string): Promise<Monitor> =>
  (await h.request('GET', `/api/v1/monitors/${monitorId}`, { headers: member })).body;

/** Waits until `done` (expect.poll is for tests only, not their set-up). */
const until = async (what: string, done: () => Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`no ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const logIn = async (page: Page, email = h.owner.user.email) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

/** Presses Tab until the element named `name` has the focus (at most `limit` presses). */
const tabTo = async (page: Page, name: string, limit = 80) => {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    if (focused === name) return;
  }
  throw new Error(`${name} is not reached with Tab in ${limit} presses`);
};

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

describe.skipIf(skipBrowser)(browserTitle('the console’s production calls and monitors in Chromium'), () => {
  beforeAll(async () => {
    await ensureConsoleBuild();
    notAudio = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
    await new Promise<void>((resolve) => notAudio.listen(0, '127.0.0.1', resolve));
    ({ h, judge } = await createJudgeHarness(
      {
        answer: (metric, transcript) =>
          metric.type === 'boolean' ? !transcript.includes('FAIL') : undefined,
      },
      {
        fetchAllowlist: ['127.0.0.1'],
      },
    ));
    member = await h.as('MEMBER');

    const agent = (name: string) =>
      made('/api/v1/agents', member, { name, call_type: 'inbound', call_medium: 'phone' });
    const [orderLine, billingLine] = [await agent('Order status line'), await agent('Billing line')];
    const metric = await made('/api/v1/metrics', member, {
      name: 'Resolves the request',
      metric_type: 'boolean',
      description: 'The caller gets what they called for.',
    });
    orders = await made('/api/v1/monitors', member, {
      agent_id: orderLine.id,
      name: 'Order status watch',
      metric_ids: [metric.id],
      sample_rate: 1,
      rules: [
        { type: 'per_call' },
        { type: 'failure_count', failures: 3, of_last: 10 },
        { type: 'pass_rate', below: 0.8, window_minutes: 60 },
      ],
    });
    billing = await made('/api/v1/monitors', member, {
      agent_id: billingLine.id,
      name: 'Billing watch',
      metric_ids: [metric.id],
      sample_rate: 0.5,
      rules: [{ type: 'new_failure', lookback_days: 7 }],
    });

    const order = (id: string, caller: string) =>
      submit({
        agent_id: orderLine.id,
        provider: 'livekit',
        external_call_id: id,
        duration_ms: 61_000,
        end_reason: 'customer-ended-call',
        transcript: turns(caller),
      });
    await order('ord-1', 'Where is my parcel?');
    await order('ord-2', 'FAIL: you never told me where my parcel is.');
    await order('ord-3', 'Thanks, that is all.');
    await submit({
      agent_id: billingLine.id,
      provider: 'vapi',
      external_call_id: 'bill-1',
      end_reason: 'assistant-ended-call',
      transcript: turns('Why was I charged twice?'),
    });
    // a recording that is not audio: it fails at once, with its reason
    await submit({
      agent_id: billingLine.id,
      provider: 'vapi',
      external_call_id: 'bill-2',
      recording: { url: `http://127.0.0.1:${(notAudio.address() as AddressInfo).port}/call.wav` },
    });
    // the judge fails ord-2, and the per-call rule fires on it
    await until('the per-call alert', async () =>
      (await alertsOf(orders.id)).some((a) => a.rule_type === 'per_call'),
    );
    await until('the failed recording', async () => {
      const list = await h.request('GET', '/api/v1/production-calls?provider=vapi', { headers: member });
      return list.body.items.some((c: ProductionCall) => c.recording_status === 'failed');
    });

    consoleUrl = `${h.url}/console`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/login`);
    await logIn(page);
    await page.getByRole('heading', { name: 'Runs', exact: true }).waitFor();
    await page.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await judge?.close();
    await new Promise((resolve) => notAudio?.close(resolve));
  });

  it('lists the monitors: agent, sample rate, calls, rules in words, state, last alert; filters by agent', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/monitors`);
    await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();
    const row = page.getByRole('row', { name: /^Order status watch/ });
    await expect.poll(() => row.textContent()).toContain('Order status line');
    const text = (await row.textContent())!;
    expect(text).toContain('100%');
    expect(text).toContain('3 / 3');
    expect(text).toContain('any call fails');
    expect(text).toContain('3 of the last 10 fail');
    expect(text).toContain('pass rate under 80% over 60 min');
    expect(text).toContain('active');
    // its last alert, linked to the monitor
    await expect.poll(() => row.locator('td').last().textContent()).not.toMatch(/none|…/);
    const other = page.getByRole('row', { name: /^Billing watch/ });
    await expect.poll(() => other.textContent()).toContain('Billing line');
    expect(await other.textContent()).toMatch(/50%.*a failure not seen in 7 days.*none$/);
    await expectAccessible(page, 'monitors');
    await screenshot(page, 'monitors');

    await page.getByLabel('Agent').selectOption({ label: 'Billing line' });
    await expect.poll(() => new URL(page.url()).searchParams.get('agent')).toBe(billing.agent_id);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await other.waitFor();
    await page.close();
  });

  it('opens a monitor: its evaluation, its alert history, and the call that tipped an alert', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/monitors`);
    await page.getByRole('link', { name: 'Order status watch' }).click();
    await page.getByRole('heading', { name: 'Order status watch', level: 1 }).waitFor();
    const evaluation = page.getByRole('link', { name: 'The monitor’s evaluation' });
    expect(await evaluation.getAttribute('href')).toMatch(
      new RegExp(`/evaluations/${orders.evaluation_id}$`),
    );
    await page.getByRole('link', { name: 'Resolves the request' }).waitFor();
    const alert = page.locator('table.alerts tbody tr').filter({ hasText: 'any call fails' });
    await expect.poll(() => alert.textContent()).toContain('A call failed: Resolves the request.');
    expect(await alert.textContent()).toMatch(/call #2.*1 failure/);
    expect(await alert.textContent()).toContain('not set');
    await expectAccessible(page, 'monitor');
    await screenshot(page, 'monitor');

    await alert.getByRole('link', { name: /^Open the call/ }).click();
    const tipped = calls.get('ord-2')!;
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/calls/${tipped.call_import_row_id}`);
    const params = new URL(page.url()).searchParams;
    expect(params.get('import')).toBe(tipped.call_import_id);
    expect(params.get('evaluation')).toBe(orders.evaluation_id);
    await page.getByText('FAIL: you never told me where my parcel is.').waitFor();
    await expect.poll(() => page.locator('.transcript .turn').count()).toBe(2);
    // with the monitor's verdict: flagged on its metric
    await page.locator('.verdict.flagged').filter({ hasText: 'Resolves the request' }).waitFor();
    await expectAccessible(page, 'monitor-call');
    await screenshot(page, 'monitor-call');
    await page.close();
  });

  it('pauses and resumes a monitor from the keyboard', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/monitors`);
    await page.getByRole('row', { name: /^Order status watch/ }).waitFor();
    await tabTo(page, 'Pause Order status watch');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await monitorOf(orders.id)).is_active).toBe(false);
    // the button keeps the focus and now resumes
    await expect.poll(() => focusedLabel(page)).toBe('Resume Order status watch');
    await expect
      .poll(() => page.getByRole('row', { name: /^Order status watch/ }).textContent())
      .toContain('paused');
    await page.keyboard.press('Space');
    await expect.poll(async () => (await monitorOf(orders.id)).is_active).toBe(true);
    await expect.poll(() => focusedLabel(page)).toBe('Pause Order status watch');
    await page.close();
  });

  it('lists the production calls newest first, with their recording state, each opening its call', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/production-calls`);
    await page.getByRole('heading', { name: 'Production calls', exact: true }).waitFor();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    const ids = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(ids).toEqual(['bill-2', 'bill-1', 'ord-3', 'ord-2', 'ord-1']);
    const failing = page.getByRole('row', { name: /ord-2/ });
    expect(await failing.textContent()).toMatch(
      /Order status line.*livekit.*ord-2.*1:01.*customer-ended-call.*2.*none/,
    );
    const unreadable = page.getByRole('row', { name: /bill-2/ });
    await expect.poll(() => unreadable.textContent()).toMatch(/failed.*not a WAV.*not_audio/);
    await expectAccessible(page, 'production-calls');
    await screenshot(page, 'production-calls');

    await page.getByLabel('Provider').fill('VAPI');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('provider')).toBe('vapi');
    await expect
      .poll(() => page.locator('tbody tr td:nth-child(4)').allTextContents())
      .toEqual(['bill-2', 'bill-1']);
    await page
      .getByRole('row', { name: /bill-1/ })
      .getByRole('link')
      .click();
    const bill = calls.get('bill-1')!;
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/calls/${bill.call_import_row_id}`);
    expect(new URL(page.url()).searchParams.get('import')).toBe(bill.call_import_id);
    await page.getByText('Why was I charged twice?').waitFor();
    await page.close();
  });

  it('is usable 390 px wide', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ['monitors', '/monitors'],
      ['monitor', `/monitors/${orders.id}`],
      ['production-calls', '/production-calls'],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await page.locator('tbody tr').first().waitFor();
      await screenshot(page, `${name}-390px`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await page.close();
  });

  it('shows a READER no pause button, and unknown monitors in words', async () => {
    const email = 'monitors-reader@example.test';
    const invited = await made('/api/v1/invitations', await h.as('OWNER'), { email, role: 'READER' });
    await made('/api/v1/invitations/accept', {}, { token: invited.token, password: PASSWORD });
    const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    reader.setDefaultTimeout(15_000);
    const page = await reader.newPage();
    await page.goto(`${consoleUrl}/monitors`);
    await logIn(page, email);
    await page.getByRole('row', { name: /^Order status watch/ }).waitFor();
    await page.getByText('· READER').waitFor();
    expect(await page.getByRole('button', { name: /Pause|Resume/ }).count()).toBe(0);
    await page.goto(`${consoleUrl}/monitors/${orders.id}`);
    await page.getByRole('heading', { name: 'Order status watch', level: 1 }).waitFor();
    await page.locator('table.alerts tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: /Pause|Resume/ }).count()).toBe(0);
    await expectAccessible(page, 'monitor-reader');

    await page.goto(`${consoleUrl}/monitors/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'No such monitor' }).waitFor();
    await reader.close();
  });
});
