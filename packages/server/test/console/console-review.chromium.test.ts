import type { HumanLabel, ReviewItem, ReviewQueue } from '@voice-eval/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeDouble } from '../../src/testing/judge.js';
import { browserTitle, expectAccessible, launchChromium, screenshot, skipBrowser } from '../browser.js';
import { callRows, makeImport, makeMetric, startEvaluation } from '../factories/evaluations.js';
import type { Harness, Headers } from '../harness.js';
import { createJudgeHarness } from '../judge-harness.js';
import { ensureConsoleBuild } from './console-build.js';

/**
 * The console's review queues in a real Chromium against the real server: 24 imported calls scored
 * by a judge double on a boolean, a rating and a category metric; a queue made with the form; two
 * people labelling it at once; one of them labelling 20 calls from the keyboard alone, correcting
 * some verdicts; then the metric's agreement with those labels, through the API and on its page;
 * then new words for the judge drafted on that page, tried on the labelled calls and promoted; last,
 * a consistency check of its judge started there, the judge contradicting itself on every fourth call.
 */

const PASSWORD = 'correct horse battery';
const CALLS = 24;
const MEMBER_EMAIL = 'reviewer@example.test';

/** The judge fails calls N = 4, 8, ... (rating 2, else 4) and says calls N = 5, 10, ... were escalated. */
const fails = (n: number) => n % 4 === 0;
const escalated = (n: number) => n % 5 === 0;
type Values = { resolved: boolean; politeness: number; outcome: string };
/** What people said each call resolved (filled once they labelled): a draft saying STRICT answers it. */
const peopleSaid = new Map<number, boolean>();
/**
 * While on (the consistency check's test only), the judge contradicts itself on calls N = 4, 8, ...:
 * every second time it is asked about one (counted in `asked`), it says the opposite.
 */
let wavering = false;
const asked = new Map<number, number>();
const waver = (n: number, said: boolean): boolean => {
  if (!wavering || !fails(n)) return said;
  const times = asked.get(n) ?? 0;
  asked.set(n, times + 1);
  return times % 2 === 0 ? said : !said;
};
const judged = (n: number): Values => ({
  resolved: !fails(n),
  politeness: fails(n) ? 2 : 4,
  outcome: escalated(n) ? 'Escalated' : 'Resolved',
});

let h: Harness;
let judge: JudgeDouble;
let browser: Browser;
let ownerContext: BrowserContext;
let memberContext: BrowserContext;
let consoleUrl: string;
let owner: Headers;
let metricIds: { resolved: string; politeness: string; outcome: string };
let queue: ReviewQueue;

const made = async (path: string, headers: Record<string, string>, body: unknown) => {
  const reply = await h.request('POST', path, { headers, body });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
};

const logIn = async (context: BrowserContext, email: string) => {
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Runs', exact: true }).waitFor();
  await page.close();
};

const queueNow = async (): Promise<ReviewQueue> =>
  (await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: owner })).body;

const labelsOf = async (metricId: string): Promise<HumanLabel[]> =>
  (
    await h.request(
      'GET',
      `/api/v1/metrics/${metricId}/labels?page_size=100&labelled_by=${encodeURIComponent(h.owner.user.email)}`,
      { headers: owner },
    )
  ).body.items;

/**
 * The call the labelling page shows: its number N (`review-N`), once it is one not in `seen` (the
 * page has moved on from those) and every metric has the judge's value chosen.
 */
const shownCall = async (page: Page, seen: ReadonlySet<number> = new Set()): Promise<number> => {
  const heading = page.getByRole('heading', { name: /^Call \d+ of 24: review-\d+$/ });
  let call = Number.NaN;
  await expect
    .poll(async () => {
      const text = (await heading.count()) === 1 ? await heading.textContent() : null;
      call = Number(/review-(\d+)$/.exec(text ?? '')?.[1]);
      return Number.isInteger(call) && !seen.has(call);
    })
    .toBe(true);
  await expect.poll(() => page.locator('.label-panel button[aria-pressed="true"]').count()).toBe(3);
  return call;
};

describe.skipIf(skipBrowser)(browserTitle('the console’s review queues in Chromium'), () => {
  beforeAll(async () => {
    await ensureConsoleBuild();
    ({ h, judge } = await createJudgeHarness({
      answer: (metric, transcript) => {
        const n = Number(/row=review-(\d+)/.exec(transcript)?.[1]);
        const values = judged(n);
        if (metric.type === 'boolean')
          return waver(
            n,
            metric.description.includes('STRICT') ? (peopleSaid.get(n) ?? values.resolved) : values.resolved,
          );
        if (metric.type === 'rating') return values.politeness;
        return values.outcome;
      },
    }));
    owner = await h.as('OWNER');
    const resolved = await makeMetric(h, owner, { name: 'Resolves the request', metric_type: 'boolean' });
    const politeness = await makeMetric(h, owner, { name: 'Politeness', metric_type: 'rating' });
    const outcome = await makeMetric(h, owner, {
      name: 'Call outcome',
      metric_type: 'category',
      selection_mode: 'single_choice',
    });
    for (const name of ['Resolved', 'Escalated'])
      await made('/api/v1/metrics', owner, { name, parent_metric_id: outcome.id });
    metricIds = { resolved: resolved.id, politeness: politeness.id, outcome: outcome.id };
    const calls = await makeImport(h, owner, callRows(CALLS, 'review'));
    const evaluation = await startEvaluation(h, owner, {
      call_import_id: calls.id,
      metric_ids: Object.values(metricIds),
    });
    // polled by hand: `expect.poll` (and so `settled`) works only inside a test
    for (let status = ''; status !== 'completed'; await new Promise((r) => setTimeout(r, 100))) {
      status = (await h.request('GET', `/api/v1/evaluations/${evaluation.id}`, { headers: owner })).body
        .status;
      expect(['pending', 'running', 'completed']).toContain(status);
    }
    // a second person to label with the owner
    const invited = await made('/api/v1/invitations', owner, { email: MEMBER_EMAIL, role: 'MEMBER' });
    await made('/api/v1/invitations/accept', {}, { token: invited.token, password: PASSWORD });

    consoleUrl = `${h.url}/console`;
    browser = await launchChromium();
    ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    for (const context of [ownerContext, memberContext]) context.setDefaultTimeout(15_000);
    await logIn(ownerContext, h.owner.user.email);
    await logIn(memberContext, MEMBER_EMAIL);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await judge?.close();
  });

  it('makes a queue with the form: an evaluation picked, its metrics ticked, and lists it', async () => {
    const page = await ownerContext.newPage();
    await page.goto(`${consoleUrl}/review`);
    await page.getByRole('heading', { name: 'Review queues', exact: true }).waitFor();
    await page.getByText('No review queue yet').waitFor();
    await page.getByLabel('Name').fill('Refund calls');
    const which = page.getByRole('combobox', { name: /^Which/ });
    await expect.poll(() => which.locator('option').count()).toBe(2);
    await which.selectOption({ index: 1 });
    // the evaluation's metrics are ticked; a sub-metric is labelled through its parent
    for (const name of ['Resolves the request', 'Politeness', 'Call outcome'])
      await expect.poll(() => page.getByRole('checkbox', { name }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Escalated' }).count()).toBe(0);
    await page.getByRole('spinbutton', { name: /^Calls/ }).fill(String(CALLS));
    await page.getByRole('combobox', { name: /^Picked/ }).selectOption({ label: 'flagged calls first' });
    await page.getByRole('button', { name: 'Create queue' }).click();
    await page.getByText(`Made “Refund calls” with ${CALLS} calls.`).waitFor();
    const row = page.getByRole('row', { name: /^Refund calls/ });
    await expect.poll(() => row.textContent()).toMatch(/an evaluation.*flagged calls first.*0 of 24 done/);
    await row.getByRole('link', { name: 'Label Refund calls' }).waitFor();
    await expectAccessible(page, 'review-queues');
    await screenshot(page, 'review-queues');
    const list = await h.request('GET', '/api/v1/review-queues', { headers: owner });
    queue = list.body.items[0];
    expect(queue).toMatchObject({
      name: 'Refund calls',
      strategy: 'flagged_first',
      counts: { total: CALLS },
    });
    expect(new Set(queue.metric_ids)).toEqual(new Set(Object.values(metricIds)));
    await page.close();
  });

  it('gives two people labelling at once different calls; one labels 20 from the keyboard alone', async () => {
    const url = `${consoleUrl}/review/${queue.id}`;
    const [mine, theirs] = [await ownerContext.newPage(), await memberContext.newPage()];
    await Promise.all([mine.goto(url), theirs.goto(url)]);
    const [myCall, theirCall] = await Promise.all([shownCall(mine), shownCall(theirs)]);
    expect(myCall).not.toBe(theirCall);
    const claimed: ReviewItem[] = (
      await h.request('GET', `/api/v1/review-queues/${queue.id}/items?status=claimed`, { headers: owner })
    ).body.items;
    expect(claimed.map((i) => i.conversation_id).sort()).toEqual(
      [`review-${myCall}`, `review-${theirCall}`].sort(),
    );
    expect(new Set(claimed.map((i) => i.claimed_by))).toEqual(new Set([h.owner.user.email, MEMBER_EMAIL]));

    // the metrics in the panel's order, and each one's values in the order digits pick them
    const order = await mine.locator('.label-metric legend strong').allTextContents();
    expect(new Set(order)).toEqual(new Set(['Resolves the request', 'Politeness', 'Call outcome']));
    const outcomeChoices = await mine
      .getByRole('group', { name: /^Call outcome/ })
      .getByRole('button')
      .allTextContents();
    expect(outcomeChoices.map((c) => c.replace(/^\d\s*/, ''))).toEqual(['Escalated', 'Resolved']);
    let at = 0;
    const goTo = async (name: string) => {
      const target = order.indexOf(name);
      for (; at < target; at++) await mine.keyboard.press('ArrowDown');
      for (; at > target; at--) await mine.keyboard.press('ArrowUp');
    };

    // the help lists the labelling keys beside the call's
    await mine.keyboard.press('?');
    const help = mine.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByRole('heading', { name: 'Labelling' }).waitFor();
    await help.getByText('Previous or next metric').waitFor();
    await mine.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);

    const expected = new Map<number, Values & { note: string }>();
    let call = myCall;
    for (let i = 0; i < 20; i++) {
      if (i > 0) call = await shownCall(mine, new Set(expected.keys()));
      expect(call, 'the call another person holds').not.toBe(theirCall);
      expect(expected.has(call), 'a call labelled before').toBe(false);
      const values = { ...judged(call), note: '' };
      at = 0;
      if (i % 3 === 0) {
        await goTo('Resolves the request');
        values.resolved = !values.resolved;
        await mine.keyboard.press(values.resolved ? '1' : '2');
      }
      if (i % 4 === 1) {
        await goTo('Politeness');
        values.politeness = 5;
        await mine.keyboard.press('5');
      }
      if (i % 5 === 2) {
        await goTo('Call outcome');
        values.outcome = values.outcome === 'Resolved' ? 'Escalated' : 'Resolved';
        await mine.keyboard.press(values.outcome === 'Escalated' ? '1' : '2');
      }
      if (i % 6 === 5) {
        await mine.keyboard.press('n');
        await mine.keyboard.type('Checked by ear.');
        await mine.keyboard.press('Escape');
        values.note = 'Checked by ear.';
      }
      if (i === 0) {
        const corrected = mine.getByRole('group', { name: /^Resolves the request/ });
        await corrected.getByText('corrected').waitFor();
        await expectAccessible(mine, 'review-label');
        await screenshot(mine, 'review-label');
      }
      expected.set(call, values);
      await mine.keyboard.press('Enter');
      await mine.getByText(`You labelled ${i + 1} ${i === 0 ? 'call' : 'calls'} here.`).waitFor();
    }

    // 20 done, the owner holds the next and the other person theirs
    await expect.poll(async () => (await queueNow()).counts).toMatchObject({ done: 20, claimed: 2, open: 2 });
    for (const [key, metricId] of Object.entries(metricIds) as Array<[keyof Values, string]>) {
      const labels = await labelsOf(metricId);
      expect(labels).toHaveLength(20);
      for (const label of labels) {
        const n = Number(label.conversation_id.replace('review-', ''));
        expect(label.value, `${key} of ${label.conversation_id}`).toEqual(expected.get(n)?.[key]);
        expect(label.note).toBe(expected.get(n)?.note);
      }
    }
    const flipped = [...expected.entries()].filter(([n, v]) => v.resolved !== judged(n).resolved).length;
    expect(flipped).toBe(7);
    const agreement = (
      await h.request('GET', `/api/v1/metrics/${metricIds.resolved}/agreement`, { headers: owner })
    ).body;
    expect(agreement).toMatchObject({ n: 20, metric_type: 'boolean' });
    expect(agreement.disagreements).toHaveLength(flipped);
    expect(agreement.categorical.accuracy.estimate).toBeCloseTo(13 / 20);
    const ordinal = (
      await h.request('GET', `/api/v1/metrics/${metricIds.politeness}/agreement`, { headers: owner })
    ).body;
    expect(ordinal.n).toBe(20);

    // the rest: Enter confirms the judge; then nothing is left for the owner while the other holds one
    const done = new Set(expected.keys());
    for (let i = 20; i < CALLS - 1; i++) {
      const next = await shownCall(mine, done);
      done.add(next);
      expect(next).not.toBe(theirCall);
      await mine.keyboard.press('Enter');
      await mine.getByText(`You labelled ${i + 1} calls here.`).waitFor();
    }
    await mine.getByRole('heading', { name: 'Nothing left for you' }).waitFor();
    await theirs.keyboard.press('Enter');
    await theirs.getByRole('heading', { name: 'Queue done' }).waitFor();
    await expect.poll(async () => (await queueNow()).status).toBe('completed');
    await expectAccessible(theirs, 'review-done');

    // the metric's page shows the agreement with the labels
    await mine.getByRole('link', { name: 'Resolves the request' }).click();
    await mine.getByRole('heading', { name: 'Judge agreement' }).waitFor();
    await mine.getByText(/^24 labelled calls/).waitFor();
    const stats = mine.getByRole('table', { name: 'Agreement with people' });
    await expect
      .poll(() => stats.getByRole('row', { name: /^Accuracy/ }).textContent())
      .toMatch(/^Accuracy70\.8%/);
    await screenshot(mine, 'review-agreement');
    await Promise.all([mine.close(), theirs.close()]);
  }, 180_000);

  it('drafts new words on the metric page, scores them on the labelled calls beside v1, and promotes them', async () => {
    const id = metricIds.resolved;
    const all: HumanLabel[] = (
      await h.request('GET', `/api/v1/metrics/${id}/labels?page_size=100`, { headers: owner })
    ).body.items;
    for (const label of all)
      peopleSaid.set(Number(label.conversation_id.replace('review-', '')), label.value === true);
    expect(peopleSaid.size).toBe(CALLS);
    const page = await ownerContext.newPage();
    await page.goto(`${consoleUrl}/metrics/${id}`);
    await page.getByRole('heading', { name: 'Draft versions' }).waitFor();

    // the form, prefilled with the active words (none here), typed into from the keyboard
    await page.locator('summary', { hasText: 'Draft new words' }).click();
    const form = page.getByRole('form', { name: 'Draft new words' });
    const description = form.getByLabel('Description');
    expect(await description.inputValue()).toBe('');
    await description.focus();
    await page.keyboard.type('STRICT: resolved only when the caller says the problem is fixed.');
    await form.getByLabel('Examples').fill('“That sorted it, thanks” is resolved.');
    await form.getByRole('button', { name: 'Draft version' }).click();
    await page.getByText('Drafted version 2: score it on the labelled calls to compare.').waitFor();
    const versions = page.getByRole('table', { name: 'Versions' });
    await expect
      .poll(() => versions.locator('tbody tr').allTextContents())
      .toEqual([
        expect.stringMatching(/^v2draft · drafted from v1STRICT/),
        expect.stringMatching(/^v1active/),
      ]);
    // the metric's own version stays at the active one
    const shownVersion = () =>
      page
        .locator('.facts > div', { has: page.locator('dt', { hasText: /^Version$/ }) })
        .locator('dd')
        .textContent();
    expect(await shownVersion()).toBe('v1');

    // scored on the labelled calls, then set beside v1 on the same calls
    const trial = page.getByRole('article', { name: /^Version 2/ });
    await trial.getByText("No labelled call has both versions' scores yet").waitFor();
    await trial.getByRole('button', { name: 'Score on labelled calls' }).click();
    await trial.getByText(`Scored ${CALLS} calls with v2.`).waitFor({ timeout: 60_000 });
    const compared = trial.getByRole('table', { name: 'Version 2 beside version 1' });
    await compared.waitFor();
    const reply = await h.request('GET', `/api/v1/metrics/${id}/agreement?version=2&baseline_version=1`, {
      headers: owner,
    });
    expect(reply.status).toBe(200);
    const paired = reply.body.paired;
    expect(paired).toMatchObject({ baseline_version: 1, n: CALLS, measure: 'accuracy', better: 7, worse: 0 });
    expect(paired.version.estimate).toBe(1);
    expect(paired.baseline.estimate).toBeCloseTo(17 / 24);
    expect(paired.p_value).toBeCloseTo(2 / 2 ** 7);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const pts = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x * 100).toFixed(1)}`;
    const stat = (e: { estimate: number; low: number; high: number }) =>
      `${pct(e.estimate)} [${pct(e.low)}–${pct(e.high)}]`;
    const d = paired.difference;
    expect(await compared.getByRole('row', { name: /^Accuracy/ }).textContent()).toBe(
      `Accuracy${stat(paired.version)}${stat(paired.baseline)}${pts(d.estimate)} pts [${pts(d.low)} to ${pts(d.high)}]`,
    );
    expect(await compared.getByRole('row', { name: /^Closer to people/ }).textContent()).toBe(
      `Closer to people7 calls0 callsp = ${paired.p_value.toPrecision(2)} (exact McNemar)`,
    );
    await trial
      .getByText(
        `Version 2 agrees with people on 24 of 24 calls where version 1 agreed on 17; the difference is ` +
          `${pts(d.estimate)} points (95% interval ${pts(d.low)} to ${pts(d.high)}), p = 0.016.`,
        { exact: true },
      )
      .waitFor();
    await trial.getByText(/closer to people on 7 calls, further on 0: a split this uneven/).waitFor();
    await expectAccessible(page, 'metric-draft-trial');
    await screenshot(page, 'metric-draft-trial');

    // a READER sees the comparison, and no form or button
    const email = 'metric-reader@example.test';
    const invited = await made('/api/v1/invitations', owner, { email, role: 'READER' });
    await made('/api/v1/invitations/accept', {}, { token: invited.token, password: PASSWORD });
    const reader = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    reader.setDefaultTimeout(15_000);
    await logIn(reader, email);
    const read = await reader.newPage();
    await read.goto(`${consoleUrl}/metrics/${id}`);
    await read.getByRole('table', { name: 'Version 2 beside version 1' }).waitFor();
    expect(
      await read.getByRole('button', { name: /^(Score on labelled calls|Promote version 2)$/ }).count(),
    ).toBe(0);
    expect(await read.locator('summary', { hasText: 'Draft new words' }).count()).toBe(0);
    await reader.close();

    // promoted, v2 is the metric's version and its agreement the one shown
    await trial.getByRole('button', { name: 'Promote version 2' }).click();
    await page.getByText('Version 2 is active: evaluations score with its words now.').waitFor();
    await expect.poll(shownVersion).toBe('v2');
    await expect
      .poll(() => versions.locator('tbody tr').allTextContents())
      .toEqual([
        expect.stringMatching(/^v2active · drafted from v1STRICT/),
        expect.stringMatching(/^v1superseded/),
      ]);
    await expect.poll(() => trial.count()).toBe(0);
    const stats = page.getByRole('table', { name: 'Agreement with people' });
    await expect
      .poll(() => stats.getByRole('row', { name: /^Accuracy/ }).textContent())
      .toMatch(/^Accuracy100\.0%/);
    const metric = (await h.request('GET', `/api/v1/metrics/${id}`, { headers: owner })).body;
    expect(metric).toMatchObject({ version: 2, description: expect.stringContaining('STRICT') });

    // a draft whose metric is edited meanwhile is refused on promotion (409), said on the page
    const draft = await made(`/api/v1/metrics/${id}/versions`, owner, { description: 'STRICT and brief.' });
    await page.reload();
    const stale = page.getByRole('article', { name: /^Version 3/ });
    await stale.waitFor();
    const edit = await h.request('PATCH', `/api/v1/metrics/${id}`, {
      headers: owner,
      body: { example: 'Edited.' },
    });
    expect(edit.body.version).toBe(4);
    await stale.getByRole('button', { name: `Promote version ${draft.version}` }).click();
    await stale
      .getByRole('alert')
      .getByText(/changed after version 3 was drafted \(it is at version 4\)/)
      .waitFor();
    await page.close();
  }, 120_000);

  it('shows a READER the queues with no form and no labelling link', async () => {
    const email = 'review-reader@example.test';
    const invited = await made('/api/v1/invitations', owner, { email, role: 'READER' });
    await made('/api/v1/invitations/accept', {}, { token: invited.token, password: PASSWORD });
    const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    reader.setDefaultTimeout(15_000);
    await logIn(reader, email);
    const page = await reader.newPage();
    await page.goto(`${consoleUrl}/review`);
    await page.getByRole('row', { name: /^Refund calls/ }).waitFor();
    await page.getByText('· READER').waitFor();
    expect(await page.getByRole('heading', { name: 'New review queue' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Label / }).count()).toBe(0);
    await page.goto(`${consoleUrl}/review/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'No such review queue' }).waitFor();
    await reader.close();
  });

  it('checks the judge’s consistency from the metric page, showing the flip rate the API counts', async () => {
    const id = metricIds.resolved;
    const checks = `/api/v1/metrics/${id}/consistency-checks`;
    const page = await ownerContext.newPage();
    await page.goto(`${consoleUrl}/metrics/${id}`);
    await page.getByRole('heading', { name: 'Judge consistency' }).waitFor();
    await page.getByText('No consistency check yet: start one below.').waitFor();
    const form = page.getByRole('form', { name: "Check the judge's consistency" });
    // the newest completed evaluation that scored the metric, picked to start with
    const source = form.getByRole('combobox', { name: 'Calls from' });
    await expect.poll(() => source.locator('option').count()).toBeGreaterThan(0);
    expect(await source.locator('option:checked').textContent()).toMatch(/ · 24 calls$/);
    const picked = await source.inputValue();
    const row = page.getByRole('table', { name: 'Consistency checks' }).locator('tbody tr');
    const status = row.locator('td').nth(2);

    // the judge says the opposite every second time it is asked about calls 4, 8, ..., 24: all 24
    // calls scored 3 times, those 6 flip (their verdict changes from one repeat to the next)
    wavering = true;
    asked.clear();
    judge.setLatency(200);
    try {
      await source.focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(String(CALLS));
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('3');
      await page.keyboard.press('Enter');
      await form.getByText(/^Started a check with v\d+: see it above\.$/).waitFor();
      await expect.poll(() => row.count()).toBe(1);
      await row.getByRole('progressbar', { name: 'Consistency check progress' }).waitFor();
      expect(await status.textContent()).toMatch(/^running: \d+ of 72 scores/);
      await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('completed');
    } finally {
      wavering = false;
      judge.setLatency(0);
    }
    const listed = (await h.request('GET', checks, { headers: owner })).body.items;
    expect(listed).toHaveLength(1);
    const reply = await h.request('GET', `${checks}/${listed[0].id}`, { headers: owner });
    expect(reply.status).toBe(200);
    const check = reply.body;
    expect(check).toMatchObject({
      status: 'completed',
      source: { kind: 'evaluation', evaluation_id: picked },
      calls: CALLS,
      repeats: 3,
      n: CALLS,
      flipped: CALLS / 4,
      value_changed: CALLS / 4,
    });
    expect(check.flip_rate.estimate).toBeCloseTo(0.25);
    expect(check.evaluation_ids).toHaveLength(3);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const stat = (e: { estimate: number; low: number; high: number }) =>
      `${pct(e.estimate)} [${pct(e.low)}–${pct(e.high)}]`;
    await expect
      .poll(() => row.locator('td').allTextContents())
      .toEqual([
        `v${check.version}`,
        `${CALLS} × 3`,
        'completed',
        `${check.flipped} of ${check.n} · ${stat(check.flip_rate)}`,
        `${check.value_changed} of ${check.n} · ${stat(check.value_change_rate)}`,
        expect.stringContaining(`by ${h.owner.user.email}`),
      ]);
    const rate = check.flip_rate;
    await page
      .getByText(
        `Scored ${check.n} calls 3 times with v${check.version}: the verdict changed on ${check.flipped} of ` +
          `them (${pct(rate.estimate)}, 95% interval ${pct(rate.low)}–${pct(rate.high)}). Compare reads a ` +
          `pass-rate change of up to ${(rate.estimate * 100).toFixed(1)} points on this version as the judge's noise.`,
        { exact: true },
      )
      .waitFor();
    // the check's own repeats are not offered as calls to check
    const offered = await source
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain(picked);
    expect(offered.filter((value) => check.evaluation_ids.includes(value))).toEqual([]);
    await expectAccessible(page, 'metric-consistency');
    await screenshot(page, 'metric-consistency');
    await page.close();
  }, 120_000);
});
