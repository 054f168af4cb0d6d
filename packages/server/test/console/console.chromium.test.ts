import type { AddressInfo } from 'node:net';
import { SuiteRunSchema } from '@voice-eval/contract';
import express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleRouter } from '../../src/http/console.js';
import { startVoiceAgentDouble, type VoiceAgentDouble } from '../../src/testing/voice-agent.js';
import { browserTitle, expectAccessible, launchChromium, screenshot, skipBrowser } from '../browser.js';
import { makeRunnableSuite, startRun } from '../factories/suite-runs.js';
import { createHarness, type Harness } from '../harness.js';
import { startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';
import { ensureConsoleBuild } from './console-build.js';

/**
 * The console in a real Chromium against the real server on its database, with data from real
 * voice runs: a voice agent double over a Twilio Media Stream, speech and judge doubles. The judge
 * passes "Confirms the booking" in the baseline run and flags it (citing the agent's last turn) in
 * the run after, whose call therefore regressed.
 */

const PASSWORD = 'correct horse battery';
const FLAGGED_METRIC = 'Confirms the booking';
let h: Harness;
let doubles: VoiceDoubles;
let agent: VoiceAgentDouble;
let browser: Browser;
let context: BrowserContext;
let baseline: ReturnType<typeof SuiteRunSchema.parse>;
let run: ReturnType<typeof SuiteRunSchema.parse>;
let consoleUrl: string;

/** The judge prompt keys each metric by its id. */
let flaggedMetricId: string | undefined;
/** Whether the baseline run is being scored (then nothing is flagged). */
let scoringBaseline = true;
const flaggedKey = (key: string) => key === flaggedMetricId && !scoringBaseline;

/** The last agent line of the judge prompt's numbered transcript (`3. agent: ...`). */
const lastAgentTurn = (transcript: string) => {
  const lines = [...transcript.matchAll(/^(\d+)\. agent: (.+)$/gm)];
  const last = lines.at(-1);
  return last ? { turn: Number(last[1]), quote: last[2]!.split(' ').slice(0, 6).join(' ') } : null;
};

/** The run once it has ended (polled by hand: `expect.poll` works only inside a test). */
const finished = async (runId: string) => {
  const headers = await h.as('READER');
  for (;;) {
    const reply = await h.request('GET', `/api/v1/suite-runs/${runId}`, { headers });
    if (['completed', 'failed', 'cancelled'].includes(reply.body.status)) {
      expect(reply.body.status, JSON.stringify(reply.body)).toBe('completed');
      return SuiteRunSchema.parse(reply.body);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

const logIn = async (page: Page, email = h.owner.user.email) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

describe.skipIf(skipBrowser)(browserTitle('the console in Chromium'), () => {
  beforeAll(async () => {
    await ensureConsoleBuild();
    doubles = await startVoiceDoubles({
      answer: (metric) => !flaggedKey(metric.key),
      rationale: (metric) => (flaggedKey(metric.key) ? 'The agent never read the booking back.' : 'Fine.'),
      evidence: (metric, transcript) => {
        const cited = flaggedKey(metric.key) ? lastAgentTurn(transcript) : null;
        return cited ? [cited] : [];
      },
      // a problem outside the metrics, on every call: the clusters page offers to make it a metric
      discover: (transcript) => [
        {
          key: 'no_goodbye',
          name: 'Ends without a goodbye',
          metric_type: 'boolean',
          observation: 'The agent ended the call without saying goodbye.',
          evidence: lastAgentTurn(transcript)?.quote ?? null,
        },
      ],
    });
    // brisk speech on both sides: the two calls below are held in real time before any test runs
    agent = await startVoiceAgentDouble({
      registry: doubles.registry,
      latencyMs: 700,
      hangUpAfterGoodbye: true,
      speechSpeed: 2,
    });
    h = await createHarness({
      fetchAllowlist: ['127.0.0.1'],
      simulationTurnTimeoutMs: 4000,
      env: doubles.env,
    });
    const { suite, metrics } = await makeRunnableSuite(h, h, {
      connection: { kind: 'twilio_media_stream', url: agent.url },
      persona: {
        response_delay_ms: 300,
        max_turns: 6,
        allow_interruptions: false,
        tts_config: { speed: 1.5 },
      },
      scenario: () => ({
        description: 'Book a checkup.',
        required_info: { name: 'Ada Lovelace', date: 'March 3' },
      }),
      metrics: [
        { name: FLAGGED_METRIC, metric_type: 'boolean', capture_rationale: true },
        { name: 'Polite', metric_type: 'boolean', capture_rationale: true, allow_discovery: true },
      ],
    });
    flaggedMetricId = metrics[0].id;
    baseline = await finished((await startRun(h, h, suite.id)).id);
    scoringBaseline = false;
    // "Polite" is reworded between the runs: the run scores it with its version 2
    const reworded = await h.request('PATCH', `/api/v1/metrics/${metrics[1].id}`, {
      headers: await h.as('MEMBER'),
      body: { description: 'Was the agent polite and warm?' },
    });
    expect(reworded.status).toBe(200);
    run = await finished((await startRun(h, h, suite.id)).id);
    consoleUrl = `${h.url}/console`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // a step that waits fails with what it waited for, well inside the test's own timeout
    context.setDefaultTimeout(15_000);
    // the context's session (its refresh cookie), for every test but the first
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/login`);
    await logIn(page);
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    await page.close();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([doubles?.close(), agent?.close()]);
  });

  it('sends to the login and back, then lists the runs', async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await fresh.newPage();
    await page.goto(`${consoleUrl}/runs/${run.id}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/login');
    await expectAccessible(page, 'login');
    await screenshot(page, 'login');
    await logIn(page);
    // back where the link pointed
    await page.getByRole('heading', { name: /Run suite/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/runs/${run.id}`);
    await page.goto(`${consoleUrl}/runs`);
    await expect.poll(() => page.getByRole('link', { name: /Run suite/ }).count()).toBe(2);
    await expectAccessible(page, 'runs');
    await screenshot(page, 'runs');
    await fresh.close();
  });

  it('shows a run: metrics with intervals, the grid, voice measures, its calls', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/runs/${run.id}`);
    await page.getByRole('heading', { name: 'Metrics' }).waitFor();
    const metricRow = page.getByRole('row', { name: new RegExp(FLAGGED_METRIC) });
    // one call, flagged: 0% with the Wilson interval of 0 out of 1
    await expect.poll(() => metricRow.textContent()).toMatch(/0%.*0%–79\.3%/);
    await page.getByRole('heading', { name: /Voice measures/ }).waitFor();
    await expectAccessible(page, 'run');
    await screenshot(page, 'run');
    await page.close();
  });

  it('compares with the baseline: no regression when nothing changed significantly', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/runs/${run.id}/compare?baseline=${baseline.id}`);
    const row = page.getByRole('row', { name: new RegExp(FLAGGED_METRIC) });
    // one call each: 100% to 0% is not significant, but the call regressed
    await expect.poll(() => row.textContent()).toContain('no significant change');
    // the metric reworded between the runs says so, in its row and above the table
    await expect.poll(() => page.getByRole('row', { name: /^Polite/ }).textContent()).toContain('v1 → v2');
    const cautions = page.getByRole('list', { name: 'Before reading the deltas' });
    expect(await cautions.textContent()).toMatch(/"Polite" was scored with version 2 here and version 1/);
    await expectAccessible(page, 'compare');
    await screenshot(page, 'compare');

    // the regressed call opens beside the baseline's call of the same persona and scenario
    await page.getByRole('heading', { name: 'Regressed calls' }).waitFor();
    await page.locator('a[href*="/compare/"]').first().click();
    await page.getByRole('heading', { name: /^This run: / }).waitFor();
    await page.getByRole('heading', { name: /^Baseline: / }).waitFor();
    await expect.poll(() => page.locator('.wave[data-ready="true"]').count()).toBe(2);
    const panes = page.locator('.beside > .call');
    await expect.poll(() => panes.nth(0).locator('.verdict.flagged').count()).toBe(1);
    expect(await panes.nth(1).locator('.verdict.flagged').count()).toBe(0);
    await expectAccessible(page, 'compare-call');
    await screenshot(page, 'compare-call');
    await page.close();
  });

  it('opens a flagged call: two lanes, the quote seeks its turn, ?t= seeks, keys work', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/runs/${run.id}?flagged=true`);
    await page
      .getByRole('link', { name: /^sim-|.+/ })
      .first()
      .waitFor();
    await page.locator('table a[href*="/calls/"]').first().click();
    const wave = page.locator('.wave[data-ready="true"]');
    await wave.waitFor();
    expect(await wave.getAttribute('data-lanes')).toBe('2');
    // drawn from the server's peaks, the audio streaming meanwhile
    expect(await wave.getAttribute('data-drawn-from')).toBe('server-peaks');
    await expectAccessible(page, 'call');
    await screenshot(page, 'call');

    // the flagged verdict's quote moves the playhead to the start of the turn it cites
    const quote = page.locator('[data-evidence-turn]').first();
    const turnIndex = Number(await quote.getAttribute('data-evidence-turn'));
    const row = await h.request(
      'GET',
      `/api/v1/call-imports/${run.call_import_id}/rows/${new URL(page.url()).pathname.split('/').at(-1)}`,
      { headers: await h.as('READER') },
    );
    const startMs = row.body.diarised_transcript[turnIndex].start_ms as number;
    await quote.click();
    const position = page.getByTestId('position');
    await expect
      .poll(async () => Number(await position.getAttribute('data-ms')))
      .toBeGreaterThanOrEqual(startMs);
    await expect
      .poll(() => page.locator('.turn.active button').getAttribute('data-turn'))
      .toBe(String(turnIndex));
    // Space on the focused quote would press it again; away from the buttons it pauses (the
    // quote played the call)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    // keyboard, paused: k goes to the turn before and j back, ? opens the help
    await page.keyboard.press('k');
    await expect
      .poll(() => page.locator('.turn.active button').getAttribute('data-turn'))
      .toBe(String(turnIndex - 1));
    await page.keyboard.press('j');
    await expect
      .poll(() => page.locator('.turn.active button').getAttribute('data-turn'))
      .toBe(String(turnIndex));
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isVisible()).toBe(true);
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');

    // one lane alone, in both ears: the caller's channel to left and right, the agent's muted
    await page.getByLabel('Hear').selectOption('caller');
    await expect.poll(() => wave.getAttribute('data-gains')).toBe('0,0,1,1');
    await page.getByLabel('Hear').selectOption('both');
    await expect.poll(() => wave.getAttribute('data-gains')).toBe('1,0,0,1');

    // ?t= seeks on load
    const url = new URL(page.url());
    url.searchParams.set('t', '3');
    await page.goto(url.href);
    await page.locator('.wave[data-ready="true"]').waitFor();
    await expect
      .poll(async () => Number(await position.getAttribute('data-ms')))
      .toBeGreaterThanOrEqual(2900);
    expect(Number(await position.getAttribute('data-ms'))).toBeLessThan(4000);
    await page.close();
  }, 90_000);

  it('shows the failure clusters of the run, and makes a discovered problem a metric', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/clusters?evaluation=${run.evaluation_id}`);
    await page.getByRole('heading', { name: 'Failure clusters' }).waitFor();
    const regenerate = page.getByRole('button', { name: 'Regenerate' });
    await regenerate.waitFor();
    await regenerate.click();
    await page.getByRole('heading', { name: 'Problems no metric covers' }).waitFor();
    await expectAccessible(page, 'clusters');
    await screenshot(page, 'clusters');

    const promote = page.getByRole('form', { name: 'Make “Ends without a goodbye” a metric' });
    await promote.getByRole('button', { name: 'Make it a metric' }).click();
    await page.getByText('Metric “Ends without a goodbye” created').waitFor();
    const metrics = await h.request('GET', '/api/v1/metrics?q=goodbye', { headers: await h.as('READER') });
    expect(metrics.body.items).toEqual([
      expect.objectContaining({ name: 'Ends without a goodbye', metric_origin: 'discovered' }),
    ]);
    await page.close();
  });

  it('answers bad addresses in words: unknown run, unknown call, unknown page, garbage params', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/runs/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'No such run' }).waitFor();
    await page.goto(`${consoleUrl}/calls/00000000-0000-4000-8000-000000000000?import=${run.call_import_id}`);
    await page.getByRole('heading', { name: 'No such call' }).waitFor();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [path, heading] of [
      [`/suites/${unknown}`, 'No such suite'],
      [`/imports/${unknown}`, 'No such import'],
      [`/evaluations/${unknown}`, 'No such evaluation'],
      [`/imports/not-an-id`, 'Validation failed'],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    // a regressed-call link without its baseline still shows this run's side, and says what is missing
    await page.goto(`${consoleUrl}/runs/${run.id}/compare/${unknown}?baseline=yesterday`);
    await page.getByRole('heading', { name: 'No such call' }).waitFor();
    await page.getByText('This link does not name the baseline run').waitFor();
    await page.goto(`${consoleUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(page, 'not-found');
    // a value that does not parse is dropped, and the page opens
    await page.goto(`${consoleUrl}/runs?status=nonsense&page=-4`);
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    await page.close();
  });

  it('shows how far the judge agrees with people on a metric, and opens a call they disagree on', async () => {
    // a person passes both calls on the flagged metric: the baseline's agrees with the judge, the run's does not
    const member = await h.as('MEMBER');
    for (const scored of [baseline, run]) {
      const rows = await h.request('GET', `/api/v1/evaluations/${scored.evaluation_id}/rows?page_size=10`, {
        headers: member,
      });
      for (const row of rows.body.items) {
        const labelled = await h.request(
          'PUT',
          `/api/v1/metrics/${flaggedMetricId}/labels/${row.call_import_row_id}`,
          {
            headers: member,
            body: { value: true, note: 'The agent read the date back.' },
          },
        );
        expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
      }
    }
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/metrics/${flaggedMetricId}`);
    await page.getByRole('heading', { name: 'Judge agreement' }).waitFor();
    const stats = page.getByRole('table', { name: 'Agreement with people' });
    await expect
      .poll(() => stats.getByRole('row', { name: /^Accuracy/ }).textContent())
      .toMatch(/^Accuracy50\.0%/);
    await page.getByText(/^2 labelled calls/).waitFor();
    await expectAccessible(page, 'metric-agreement');
    await screenshot(page, 'metric-agreement');
    const disagreed = page.getByRole('listitem').filter({ hasText: 'people true, judge false' });
    await disagreed.getByRole('link').click();
    await page.locator('.wave[data-ready="true"]').first().waitFor();
    await page.close();
  });

  it('is usable 390 px wide: only tables scroll sideways, inside their own box', async () => {
    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await narrow.newPage();
    await page.goto(`${consoleUrl}/login`);
    await logIn(page);
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    const calls = await h.request('GET', `/api/v1/suite-runs/${run.id}/calls`, {
      headers: await h.as('READER'),
    });
    const rowId = calls.body.items[0].call_import_row_id as string;
    for (const [name, path] of [
      ['runs', '/runs'],
      ['run', `/runs/${run.id}`],
      ['call', `/calls/${rowId}?import=${run.call_import_id}&run=${run.id}`],
      ['suite', `/suites/${run.suite_id}`],
      ['import', `/imports/${run.call_import_id}`],
    ] as const) {
      await page.goto(`${consoleUrl}${path}`);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, `${name}-390px`);
      // the page must not scroll sideways; what sticks out (outside a table) is named when it does
      const { overflow, wide } = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        wide: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest('table'))
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
          .slice(0, 8),
      }));
      expect(
        overflow,
        `${name} is ${overflow}px wider than the screen: ${wide.join(', ')}`,
      ).toBeLessThanOrEqual(0);
    }
    await narrow.close();
  });

  it('keeps two tabs signed in when both refresh at once (one refresh at a time across tabs)', async () => {
    const fresh = await browser.newContext();
    const first = await fresh.newPage();
    await first.goto(`${consoleUrl}/runs`);
    await logIn(first);
    await first.getByRole('heading', { name: 'Runs' }).waitFor();
    const second = await fresh.newPage();
    await second.goto(`${consoleUrl}/runs`);
    await second.getByRole('heading', { name: 'Runs' }).waitFor();
    // both reload at once: each starts by refreshing from the same cookie
    for (let i = 0; i < 3; i++) {
      await Promise.all([first.reload(), second.reload()]);
      await Promise.all([
        first.getByRole('heading', { name: 'Runs' }).waitFor(),
        second.getByRole('heading', { name: 'Runs' }).waitFor(),
      ]);
    }
    expect(new URL(first.url()).pathname).toBe('/console/runs');
    expect(new URL(second.url()).pathname).toBe('/console/runs');
    await fresh.close();
  });

  it('signs in with an API key, and a revoked key sends back to the login', async () => {
    const created = await h.request('POST', '/api/v1/auth/generate-key', {
      headers: await h.as('OWNER'),
      body: { name: 'console operator' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const operator = await browser.newContext();
    const page = await operator.newPage();
    await page.goto(`${consoleUrl}/login`);
    await page.getByRole('button', { name: 'Use an API key instead' }).click();
    await page.getByLabel('Organization API key').fill(created.body.key);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    const revoked = await h.request('DELETE', `/api/v1/api-keys/${created.body.id}`, {
      headers: await h.as('OWNER'),
    });
    expect(revoked.status).toBeLessThan(300);
    await page.goto(`${consoleUrl}/runs/${run.id}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/login');
    await operator.close();
  });

  it('creates an account from the login page, which starts with how to make a first run', async () => {
    const fresh = await browser.newContext();
    const page = await fresh.newPage();
    await page.goto(`${consoleUrl}/login`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('E-mail').fill(`new-${run.id.slice(0, 8)}@example.test`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create the account' }).click();
    // the browser's own check stops a short password; the API's answers the rest in words
    expect(new URL(page.url()).pathname).toBe('/console/login');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByRole('heading', { name: 'No runs yet' }).waitFor();
    await expectAccessible(page, 'runs-empty');
    await screenshot(page, 'runs-empty');
    await fresh.close();
  });

  it('shows a READER no button the API would refuse', async () => {
    const email = `reader-${run.id.slice(0, 8)}@example.test`;
    const invited = await h.request('POST', '/api/v1/invitations', {
      headers: await h.as('OWNER'),
      body: { email, role: 'READER' },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await h.request('POST', '/api/v1/invitations/accept', {
      body: { token: invited.body.token, password: PASSWORD },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
    const reader = await browser.newContext();
    const page = await reader.newPage();
    await page.goto(`${consoleUrl}/clusters?evaluation=${run.evaluation_id}`);
    await logIn(page, email);
    await page.getByRole('heading', { name: 'Failure clusters' }).waitFor();
    await page.getByText('READER').waitFor();
    expect(await page.getByRole('button', { name: /Regenerate/ }).count()).toBe(0);
    await page.goto(`${consoleUrl}/suites/${run.suite_id}`);
    await page.getByRole('heading', { name: 'Pass rate over runs' }).waitFor();
    expect(await page.getByRole('button', { name: /Start a run|Save schedule/ }).count()).toBe(0);
    await page.goto(`${consoleUrl}/imports/${run.call_import_id}`);
    await page.getByRole('heading', { name: 'Calls' }).waitFor();
    expect(await page.getByRole('button', { name: /Transcribe|Score|Select all/ }).count()).toBe(0);
    await reader.close();
  });

  it('works under a prefix a host app mounts it at', async () => {
    const host = express();
    host.use('/admin/voice-eval', createConsoleRouter({ apiPath: '/' }));
    host.use((req, res, next) => (req.path.startsWith('/api/v1/') ? h.server.app(req, res, next) : next()));
    const server = host.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/voice-eval`;
      const prefixed = await browser.newContext();
      const page = await prefixed.newPage();
      await page.goto(`${base}/runs`);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/voice-eval/login');
      await logIn(page);
      await expect.poll(() => page.getByRole('link', { name: /Run suite/ }).count()).toBe(2);
      expect(new URL(page.url()).pathname).toBe('/admin/voice-eval/runs');
      await prefixed.close();
    } finally {
      server.close();
    }
  });
  // the tests below start runs and evaluations: after every test that counts them

  it("charts a suite's pass rate over its runs, keeps its schedule, and starts a run", async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/suites`);
    await page.getByRole('link', { name: run.suite_name }).click();
    await page.getByRole('heading', { name: 'Pass rate over runs' }).waitFor();
    // both completed runs are points of the chart, with their intervals as a band
    await page.locator('.trend[data-points="2"] canvas').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Compare with the run before' }).count()).toBe(1);
    await expectAccessible(page, 'suite');
    await screenshot(page, 'suite');

    // a schedule the API refuses says why; one it takes shows when it runs next
    await page.getByLabel('Cron (5 fields, UTC)').fill('every day');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Cron (5 fields, UTC)').fill('0 6 * * 1-5');
    await page.getByLabel('Runs by itself').check();
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page
      .getByText(/next .*\d/)
      .first()
      .waitFor();
    const saved = await h.request('GET', `/api/v1/evaluator-suites/${run.suite_id}`, {
      headers: await h.as('READER'),
    });
    expect(saved.body).toMatchObject({ schedule: '0 6 * * 1-5', schedule_enabled: true });
    await h.request('PATCH', `/api/v1/evaluator-suites/${run.suite_id}`, {
      headers: await h.as('ADMIN'),
      body: { schedule: null, schedule_enabled: false },
    });

    await page.getByRole('button', { name: 'Start a run' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/console\/runs\/[0-9a-f-]{36}$/);
    const started = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(started).not.toBe(run.id);
    await page.getByRole('heading', { name: run.suite_name }).waitFor();
    // the call itself is not what this test is about
    await h.request('POST', `/api/v1/suite-runs/${started}/cancel`, { headers: await h.as('MEMBER') });
    await page.close();
  });

  it('scores every matching call of an import (across pages) and follows the evaluation', async () => {
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/imports?format=simulation`);
    await page.getByRole('link', { name: run.suite_name }).first().waitFor();
    await expectAccessible(page, 'imports');
    await screenshot(page, 'imports');

    await page.goto(`${consoleUrl}/imports/${baseline.call_import_id}`);
    await page.getByRole('button', { name: 'Select all 1 matching' }).click();
    await page.getByText('(every call matching the filters)').waitFor();
    await page.getByRole('button', { name: 'Transcribe…' }).click();
    await page.getByLabel('Speech-to-text model').fill('whisper-1');
    await page.getByRole('button', { name: 'Transcribe 1 calls' }).click();
    await expect.poll(() => page.locator('.bulk output').textContent()).toMatch(/queued for transcription/);
    await expectAccessible(page, 'import');
    await screenshot(page, 'import');

    await page.getByRole('button', { name: 'Score…' }).click();
    await page.getByLabel('Polite').check();
    await page.getByRole('button', { name: 'Score 1 calls with 1 metrics' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/console\/evaluations\/[0-9a-f-]{36}$/);
    const evaluationId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByText('completed', { exact: true }).first().waitFor();
    const scored = await h.request('GET', `/api/v1/evaluations/${evaluationId}`, {
      headers: await h.as('READER'),
    });
    expect(scored.body).toMatchObject({
      call_import_id: baseline.call_import_id,
      status: 'completed',
      total_rows: 1,
    });
    await page.locator('tbody a').first().waitFor();
    await expectAccessible(page, 'evaluation');
    await screenshot(page, 'evaluation');

    await page.goto(`${consoleUrl}/evaluations?import=${baseline.call_import_id}`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await expectAccessible(page, 'evaluations');
    await page.close();
  });
});
