import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { CLINIC_GREETING } from '../../src/testing/clinic-agent.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { encodeWav } from '../../src/voice/audio/index.js';
import { browserTitle, expectAccessible, launchChromium, screenshot, skipBrowser } from '../browser.js';
import { startWebhookReceiver, type WebhookReceiver } from '../doubles/webhook-receiver.js';
import { createSchema, importCsv, upload } from '../factories/call-imports.js';
import { createHarness, type Harness } from '../harness.js';
import { ensureConsoleBuild } from './console-build.js';

/**
 * The console's metrics, agents and settings pages in a real Chromium against the real server:
 * metrics with a parent, children and a draft; an agent answering on loopback (the clinic agent
 * double) and one whose address refuses; a webhook receiver on loopback that verifies signatures;
 * an OpenAI-compatible double behind an AI provider; an API key and a second workspace. No voice
 * run: everything is made through the API.
 */

const PASSWORD = 'correct horse battery';
const RUBRIC = `Objection handling rubric

Label #1
Name: Price objection
Definition: The caller says the price is too high or asks for a discount.
Examples:
- "That's way too expensive"

Label #2
Name: Timing objection
Definition: The caller wants to postpone the decision.
Examples:
- "Call me next quarter"
`;

let h: Harness;
let agent: AgentDouble;
let models: OpenAiDouble;
let receiver: WebhookReceiver;
let browser: Browser;
let context: BrowserContext;
let consoleUrl: string;
let apiKeyId: string;
let apiKey: string;
let apiKeyPrefix: string;

/** An address on loopback that refuses connections (a port just given up). */
const refusedUrl = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
};

/** A POST that must succeed, answering its body. */
const made = async (path: string, headers: Record<string, string>, body: unknown) => {
  const reply = await h.request('POST', path, { headers, body });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
};

const logIn = async (page: Page, email = h.owner.user.email) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

/** The page must not scroll sideways at its width; what sticks out (outside a table) is named. */
const expectNoSidewaysScroll = async (page: Page, name: string) => {
  const { overflow, wide } = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('table'))
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .slice(0, 8),
  }));
  expect(overflow, `${name} is ${overflow}px wider than the screen: ${wide.join(', ')}`).toBeLessThanOrEqual(
    0,
  );
};

describe.skipIf(skipBrowser)(browserTitle('the console’s metrics, agents and settings in Chromium'), () => {
  beforeAll(async () => {
    await ensureConsoleBuild();
    [agent, models, receiver] = await Promise.all([
      startAgentDouble(),
      startOpenAiDouble(),
      startWebhookReceiver(),
    ]);
    h = await createHarness({
      fetchAllowlist: ['127.0.0.1'],
      simulationTurnTimeoutMs: 4000,
      webhookRetryBaseMs: 20,
      webhookRetryMaxDelayMs: 60,
      webhookMaxAttempts: 2,
    });
    const member = await h.as('MEMBER');
    const owner = await h.as('OWNER');

    const outcome = await made('/api/v1/metrics', member, {
      name: 'Call outcome',
      metric_type: 'category',
      selection_mode: 'multi_label',
      description: 'How the call ended.',
    });
    for (const name of ['Resolved', 'Escalated'])
      await made('/api/v1/metrics', member, { name, parent_metric_id: outcome.id });
    await made('/api/v1/metrics', member, {
      name: 'Greets the caller',
      metric_type: 'boolean',
      description: 'The agent greets the caller and names the clinic.',
      example: 'Thank you for calling Riverside Clinic.',
    });
    await made('/api/v1/metrics/drafts', member, { name: 'Reads back the date', metric_type: 'boolean' });

    await made('/api/v1/agents', member, {
      name: 'Clinic receptionist',
      call_type: 'inbound',
      call_medium: 'web',
      connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-1' },
    });
    await made('/api/v1/agents', member, {
      name: 'Switched-off agent',
      call_type: 'inbound',
      call_medium: 'web',
      connection: { kind: 'openai_chat', base_url: await refusedUrl(), model: 'clinic-1' },
    });

    await made('/api/v1/aiproviders', owner, {
      provider: 'openai_compatible',
      name: 'Local models',
      endpoint_url: models.url,
      api_key: 'sk-local-0123456789abcdef',
    });
    const key = await made('/api/v1/auth/generate-key', owner, { name: 'CI pipeline' });
    [apiKeyId, apiKey, apiKeyPrefix] = [key.id, key.key, key.prefix];
    await made('/api/v1/workspaces', owner, { name: 'Staging' });
    await made('/api/v1/webhook-endpoints', owner, {
      url: `${receiver.url}/hooks/old`,
      events: ['suite_run.failed'],
      description: 'Old receiver',
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
    await Promise.all([agent?.close(), models?.close(), receiver?.close()]);
  });

  it('lists metrics: children under their parent, types, what flags each; opens one', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/metrics`);
    await page.getByRole('heading', { name: 'Metrics', exact: true }).waitFor();
    // a row's name starts with its metric's (a child's also names its parent, after its own)
    const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });
    await expect
      .poll(() => row('Call outcome').textContent())
      .toMatch(/category.*multi-label, 2 sub-metrics/);
    // the failure policies, inferred: a boolean fails on false, a negative label when chosen
    await expect.poll(() => row('Greets the caller').textContent()).toContain('false');
    await expect.poll(() => row('Escalated').textContent()).toContain('when chosen');
    expect(await row('Resolved').textContent()).toContain('never');
    // children come right after their parent, indented
    const names = await page.locator('tbody tr td:first-child a').allTextContents();
    const parent = names.indexOf('Call outcome');
    expect(names.slice(parent + 1, parent + 3)).toEqual(['Escalated', 'Resolved']);
    expect(await page.locator('tr.child').count()).toBe(2);
    await expectAccessible(page, 'metrics');
    await screenshot(page, 'metrics');

    await page.getByRole('link', { name: 'Call outcome' }).click();
    await page.getByRole('heading', { name: 'Call outcome', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Sub-metrics' }).waitFor();
    // the description (the version history below repeats it)
    await page.locator('p.text').filter({ hasText: 'How the call ended.' }).waitFor();
    await page.getByRole('link', { name: 'Escalated' }).click();
    await page.getByRole('heading', { name: 'Escalated', level: 1 }).waitFor();
    await page.getByText('A sub-metric of').waitFor();
    await page.getByRole('link', { name: 'Call outcome' }).waitFor();
    await page.goto(`${consoleUrl}/metrics?q=Greets`);
    await page.getByRole('link', { name: 'Greets the caller' }).click();
    await page.getByText('Thank you for calling Riverside Clinic.').waitFor();
    // its reliability: nothing labelled yet, and its one version
    await page.getByRole('heading', { name: 'Judge agreement' }).waitFor();
    await page.getByText('No call scored with v1 has a label yet').waitFor();
    const versions = page.getByRole('table', { name: 'Versions' });
    await expect
      .poll(() => versions.locator('tbody tr').allTextContents())
      .toEqual([expect.stringMatching(/^v1active.*names the clinic/)]);
    await expectAccessible(page, 'metric');
    await screenshot(page, 'metric');
    await page.close();
  });

  it('promotes a draft', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/metrics`);
    await page.getByLabel('Show').selectOption('draft');
    await expect.poll(() => new URL(page.url()).searchParams.get('lifecycle')).toBe('draft');
    const draft = page.getByRole('row', { name: /Reads back the date/ });
    await expect.poll(() => draft.textContent()).toContain('draft');
    await page.getByRole('button', { name: 'Promote Reads back the date' }).click();
    await page.getByText('“Reads back the date” promoted').waitFor();
    // promoted, it leaves the drafts
    await page.getByRole('heading', { name: 'No drafts' }).waitFor();
    const active = await h.request('GET', '/api/v1/metrics?q=Reads%20back', {
      headers: await h.as('READER'),
    });
    expect(active.body.items).toEqual([expect.objectContaining({ lifecycle: 'active' })]);
    await page.close();
  });

  it('parses a pasted rubric, shows the metrics, and creates them as drafts under a parent', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/metrics`);
    await page.getByRole('button', { name: 'Paste a rubric' }).click();
    await page.getByRole('textbox', { name: /^Rubric/ }).fill(RUBRIC);
    await page.getByLabel('Parent category').fill('Objections');
    await page.getByRole('button', { name: 'Parse' }).click();
    await page.getByRole('heading', { name: /2 metrics parsed under “Objections”/ }).waitFor();
    await page.getByRole('cell', { name: 'The caller wants to postpone the decision.' }).waitFor();
    await expectAccessible(page, 'metrics-rubric');
    await screenshot(page, 'metrics-rubric');

    await page.getByRole('button', { name: 'Create 3 drafts' }).click();
    await page.getByText('3 drafts created').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('lifecycle')).toBe('draft');
    await page.getByRole('row', { name: /Timing objection/ }).waitFor();
    expect(await page.locator('tr.child').count()).toBe(2);
    const drafts = await h.request('GET', '/api/v1/metrics?lifecycle=draft&q=Objections', {
      headers: await h.as('READER'),
    });
    expect(drafts.body.items).toHaveLength(1);
    expect(drafts.body.items[0]).toMatchObject({ lifecycle: 'draft', selection_mode: 'multi_label' });
    expect(drafts.body.items[0].children.map((c: { name: string }) => c.name).sort()).toEqual([
      'Price objection',
      'Timing objection',
    ]);
    await page.close();
  });

  it("tests an agent's connection and shows the greeting, or why it failed", async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/agents`);
    const clinic = page.getByRole('row', { name: /Clinic receptionist/ });
    await expect.poll(() => clinic.textContent()).toContain(agent.chatBaseUrl);
    await page.getByRole('button', { name: 'Test connection of Clinic receptionist' }).click();
    const result = clinic.locator('output[aria-live="polite"]');
    await expect.poll(() => result.textContent()).toContain(CLINIC_GREETING);
    expect(await result.textContent()).toMatch(/^Connected in \d+/);

    await page.getByRole('button', { name: 'Test connection of Switched-off agent' }).click();
    const refused = page.getByRole('row', { name: /Switched-off agent/ }).locator('output');
    await expect.poll(() => refused.textContent()).toMatch(/^Failed after .*agent_unreachable/);
    await expectAccessible(page, 'agents');
    await screenshot(page, 'agents');
    await page.close();
  });

  it('adds a webhook endpoint, pings it, redelivers the ping, rotates its secret; deletes another', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/settings/webhooks`);
    await page.getByRole('row', { name: /Old receiver/ }).waitFor();
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/hooks/console`);
    await page.getByLabel('Description', { exact: true }).fill('Console receiver');
    await page.getByRole('checkbox', { name: /evaluation\.completed/ }).check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = page.getByTestId('secret');
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_/);
    const first = (await secret.textContent())!;
    receiver.setSecret('/hooks/console', first);
    await page.getByRole('row', { name: /Console receiver/ }).waitFor();
    await expectAccessible(page, 'webhooks');
    await screenshot(page, 'webhooks');

    // another endpoint is deleted, after a confirmation
    await page.getByRole('button', { name: 'Delete Old receiver' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Old receiver/ }).count()).toBe(0);

    await page.getByRole('link', { name: `${receiver.url}/hooks/console` }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByText('Nothing delivered yet').waitFor();
    await page.getByRole('button', { name: 'Ping Console receiver' }).click();
    const delivered = page.locator('tbody tr[data-status="delivered"]');
    // delivered in the background; the log refreshes every second while a delivery is under way
    await expect.poll(() => delivered.count()).toBe(1);
    expect(await delivered.first().textContent()).toMatch(/ping.*HTTP 200.*1 attempt/);
    await page.getByRole('button', { name: /^Redeliver ping/ }).click();
    await page.getByText('Sent again').waitFor();
    await expect.poll(() => delivered.count()).toBe(2);
    const got = receiver.on('/hooks/console');
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.verifyError)).toEqual([null, null]);
    // a redelivery is the same event: the same webhook-id
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    await expectAccessible(page, 'webhook');
    await screenshot(page, 'webhook');

    await page.getByRole('button', { name: 'Rotate secret of Console receiver' }).click();
    await page.getByRole('button', { name: 'Yes, rotate secret' }).click();
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_/);
    expect(await secret.textContent()).not.toBe(first);
    const endpoints = await h.request('GET', '/api/v1/webhook-endpoints', { headers: await h.as('ADMIN') });
    expect(endpoints.body.items).toEqual([expect.objectContaining({ description: 'Console receiver' })]);
    await page.close();
  }, 60_000);

  it('generates an API key, shown once, and revokes another after a confirmation', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/settings/api-keys`);
    const ci = page.getByRole('row', { name: /CI pipeline/ });
    await expect.poll(() => ci.textContent()).toContain(apiKeyPrefix);
    await expectAccessible(page, 'api-keys');
    await screenshot(page, 'api-keys');

    await page.getByLabel('Name', { exact: true }).fill('Made in the console');
    await page.getByRole('button', { name: 'Generate a key' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).toMatch(/^ve_live_/);
    await page.getByRole('row', { name: /Made in the console/ }).waitFor();

    await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('“CI pipeline”').first().waitFor();
    await expect.poll(() => ci.count()).toBe(0);
    const keys = await h.request('GET', '/api/v1/api-keys?include_revoked=true', {
      headers: await h.as('ADMIN'),
    });
    const revoked = keys.body.items.find((k: { id: string }) => k.id === apiKeyId);
    expect(revoked.revoked_at).not.toBeNull();
    expect((await h.request('GET', '/api/v1/auth/me', { headers: { 'x-api-key': apiKey } })).status).toBe(
      401,
    );
    await page.getByLabel('Show revoked keys').check();
    await expect.poll(() => ci.textContent()).toContain('revoked');
    await page.close();
  });

  it('creates a workspace and renames it', async () => {
    const page = await context.newPage();
    // the settings open on their first page
    await page.goto(`${consoleUrl}/settings`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/settings/workspaces');
    await page.getByRole('row', { name: /Staging/ }).waitFor();
    await expectAccessible(page, 'workspaces');
    await screenshot(page, 'workspaces');

    await page.getByLabel('Name', { exact: true }).fill('Research');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('Workspace “Research” created.').waitFor();
    await page.getByRole('button', { name: 'Rename Research' }).click();
    await page.getByLabel('New name').fill('Research lab');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Renamed to “Research lab”.').waitFor();
    await page.getByRole('row', { name: /Research lab/ }).waitFor();
    // the switcher at the top knows the new name too
    await expect
      .poll(() => page.locator('.account select option').allTextContents())
      .toContain('Research lab');
    const list = await h.request('GET', '/api/v1/workspaces?q=research', { headers: await h.as('READER') });
    expect(list.body.items).toEqual([expect.objectContaining({ name: 'Research lab', slug: 'research' })]);
    await page.close();
  });

  it('lists the AI providers and tests one', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/settings/providers`);
    const row = page.getByRole('row', { name: /Local models/ });
    await expect.poll(() => row.textContent()).toContain('sk-...cdef');
    await page.getByRole('button', { name: 'Test Local models' }).click();
    await expect.poll(() => row.locator('output').textContent()).toMatch(/^Works: \d+ models? in/);
    await expect.poll(() => row.textContent()).not.toContain('never');
    await expectAccessible(page, 'providers');
    await screenshot(page, 'providers');
    await page.close();
  });

  it('answers unknown metrics and endpoints, and garbage params, in words', async () => {
    const page = await context.newPage();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [path, heading] of [
      [`/metrics/${unknown}`, 'No such metric'],
      [`/settings/webhooks/${unknown}`, 'No such webhook endpoint'],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.goto(`${consoleUrl}/metrics?lifecycle=archived&page=-2`);
    await page.getByRole('link', { name: 'Greets the caller' }).waitFor();
    await page.close();
  });

  it('degrades gracefully: a mono recording draws one lane, a call without one shows its transcript', async () => {
    const recordedSchema = await createSchema(h, h, [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'recording', type: 'recording_url', is_required: true },
    ]);
    const mono = encodeWav({
      sampleRate: 8000,
      channels: [Int16Array.from({ length: 16_000 }, (_, i) => Math.round(Math.sin(i / 5) * 6000))],
    });
    const uploaded = await upload(h, await h.as('MEMBER'), { schema_id: recordedSchema }, [
      { field: 'files', name: 'mono-call.wav', bytes: Buffer.from(mono), type: 'audio/wav' },
    ]);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const monoRow = (
      await h.request('GET', `/api/v1/call-imports/${uploaded.body.id}`, { headers: await h.as('READER') })
    ).body.rows[0];
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/calls/${monoRow.id}?import=${uploaded.body.id}`);
    const wave = page.locator('.wave[data-ready="true"]');
    await wave.waitFor();
    expect(await wave.getAttribute('data-lanes')).toBe('1');
    // one lane: nothing to solo
    expect(await page.getByLabel('Hear').count()).toBe(0);
    await expectAccessible(page, 'call-mono');

    const texts = await importCsv(h, h, await createSchema(h, h), [
      ['conversation_id', 'agent', 'recording', 'transcript'],
      [
        'text-1',
        'Ava',
        '',
        'Agent: Riverside Clinic, how can I help?\nCaller: I need to move my appointment.',
      ],
    ]);
    const textRow = (
      await h.request('GET', `/api/v1/call-imports/${texts.id}`, { headers: await h.as('READER') })
    ).body.rows[0];
    await page.goto(`${consoleUrl}/calls/${textRow.id}?import=${texts.id}`);
    await page.getByText('This call has no recording').waitFor();
    await expect.poll(() => page.locator('.transcript .turn').count()).toBe(2);
    expect(await page.locator('.wave').count()).toBe(0);
    await expectAccessible(page, 'call-text');
    await screenshot(page, 'call-text');
    await page.close();
  });

  it('is usable 390 px wide', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ['metrics', '/metrics'],
      ['agents', '/agents'],
      ['webhooks', '/settings/webhooks'],
      ['api-keys', '/settings/api-keys'],
      ['workspaces', '/settings/workspaces'],
      ['providers', '/settings/providers'],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await page.locator('tbody tr').first().waitFor();
      await screenshot(page, `${name}-390px`);
      await expectNoSidewaysScroll(page, name);
    }
    await page.close();
  });

  it('shows a READER no button the API would refuse', async () => {
    const email = 'settings-reader@example.test';
    const invited = await made('/api/v1/invitations', await h.as('OWNER'), { email, role: 'READER' });
    await made('/api/v1/invitations/accept', {}, { token: invited.token, password: PASSWORD });
    const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    reader.setDefaultTimeout(15_000);
    const page = await reader.newPage();
    await page.goto(`${consoleUrl}/metrics?lifecycle=draft`);
    await logIn(page, email);
    await page.getByRole('row', { name: /Timing objection/ }).waitFor();
    await page.getByText('· READER').waitFor();
    const writes =
      /Promote|Paste a rubric|Test|Add an endpoint|Generate|Revoke|Create|Rename|Make default|Ping|Delete/;
    expect(await page.getByRole('button', { name: writes }).count()).toBe(0);
    for (const [path, shows] of [
      ['/agents', page.getByRole('row', { name: /Clinic receptionist/ })],
      ['/settings/workspaces', page.getByRole('row', { name: /Staging/ })],
      ['/settings/providers', page.getByRole('row', { name: /Local models/ })],
      ['/settings/api-keys', page.getByRole('heading', { name: 'Only admins manage API keys' })],
      ['/settings/webhooks', page.getByRole('heading', { name: 'Only admins manage webhooks' })],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await shows.waitFor();
      expect(await page.getByRole('button', { name: writes }).count(), path).toBe(0);
    }
    await expectAccessible(page, 'webhooks-reader');
    await reader.close();
  });
});
