import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalServer } from '@voice-eval/server';
import { encodeWav } from '@voice-eval/server/bench-internals';
import express from 'express';
import pino from 'pino';
import { type Browser, chromium, type Page } from 'playwright-core';
import { median } from './call-imports-setup.js';
import { SERVER_DIR } from './server-process.js';

/**
 * The console in Debian's Chromium (playwright-core), against the server in this process on
 * PGlite:
 * - initial JS and CSS (gzip) of the built console, against a budget;
 * - navigation -> a usable run page (its metric table and first calls drawn) for a run of 2,000
 *   calls, against the same calls as a static HTML table served by the same process;
 * - navigation -> a drawn two-lane waveform of a 10-minute stereo call, against a bare `<audio>`
 *   element's `canplay` on the same recording's signed URL.
 * Runs alternate between the console and its baseline; figures are medians.
 */

export const CONSOLE_SETTINGS = { runs: 5, budgetKb: 200, calls: 2_000, callMinutes: 10 };
const PASSWORD = 'correct horse battery';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Initial JS and CSS: what the page's `index.html` loads before anything lazy. */
const bundle = () => {
  const root = join(SERVER_DIR, 'dist', 'console');
  const page = readFileSync(join(root, 'index.html'), 'utf8');
  const assets = [...page.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const gzip = (file: string) => gzipSync(readFileSync(join(root, file))).length;
  const js = assets.filter((a) => a.endsWith('.js')).reduce((n, a) => n + gzip(a), 0);
  const css = assets.filter((a) => a.endsWith('.css')).reduce((n, a) => n + gzip(a), 0);
  return { jsKb: js / 1024, cssKb: css / 1024 };
};

const timedNavigation = async (page: Page, url: string, ready: (page: Page) => Promise<unknown>) => {
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  return performance.now() - started;
};

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const consoleBench = async (): Promise<Record<string, number>> => {
  const { jsKb, cssKb } = bundle();
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-bench-console-'));
  const server = createVoiceEvalServer({
    dataDir,
    env: {},
    workerConcurrency: 0,
    authRateLimitPerMinute: 100_000,
    // the agent's webhook connection points at loopback (no worker ever calls it)
    fetchAllowlist: ['127.0.0.1'],
    logger: pino({ level: 'warn' }),
  });
  const { url } = await server.listen(0);
  let browser: Browser | undefined;
  try {
    const signup = await fetch(`${url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
    });
    const session = await signup.json();
    const client = new VoiceEval({ baseUrl: url, accessToken: session.access_token });

    // a run of 2,000 calls: 4 personas x 5 scenarios, 100 calls each (no worker takes them)
    const agent = await client.agents.create({
      name: 'Bench agent',
      call_type: 'inbound',
      call_medium: 'phone',
      connection: {
        kind: 'webhook',
        url: 'http://127.0.0.1:9/webhook',
        secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
    });
    const personas = [];
    for (let i = 0; i < 4; i++) {
      personas.push(
        await client.personas.create({ name: `Caller ${i}`, tts_provider: 'cartesia', tts_voice_id: 'v1' }),
      );
    }
    const scenarios = [];
    for (let i = 0; i < 5; i++) {
      scenarios.push(await client.scenarios.create({ name: `Scenario ${i}`, description: 'Caller asks' }));
    }
    const metric = await client.metrics.create({ name: 'Resolves the request' });
    const suite = await client.evaluatorSuites.create({
      name: 'Bench suite',
      agent_id: agent.id,
      persona_ids: personas.map((p) => p.id),
      scenario_ids: scenarios.map((s) => s.id),
      metric_ids: [metric.id],
    });
    const run = await client.suiteRuns.create(suite.id, {
      runs_per_combination: CONSOLE_SETTINGS.calls / 20,
    });
    const calls = await client.suiteRuns
      .listCalls(run.id, { page_size: 100 })
      .toArray({ limit: CONSOLE_SETTINGS.calls });
    if (calls.length !== CONSOLE_SETTINGS.calls)
      throw new Error(`expected ${CONSOLE_SETTINGS.calls} calls, got ${calls.length}`);

    // a 10-minute stereo call (8 kHz, a tone on each side in turn) as an uploaded recording
    const rate = 8000;
    const samples = CONSOLE_SETTINGS.callMinutes * 60 * rate;
    const side = (offset: number) =>
      Int16Array.from({ length: samples }, (_, i) =>
        Math.floor(i / (rate * 4)) % 2 === offset
          ? Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / rate))
          : 0,
      );
    const wav = encodeWav({ sampleRate: rate, channels: [side(0), side(1)] });
    const schema = await client.callImportSchemas.create({
      name: 'Recordings',
      parameters: [
        { name: 'conversation_id', type: 'conversation_id', is_required: true },
        { name: 'recording', type: 'recording_url', is_required: true },
      ],
    });
    const imported = await client.callImports.create({
      schema_id: schema.id,
      files: [new File([wav as BlobPart], 'long-call.wav', { type: 'audio/wav' })],
    });
    const detail = await client.callImports.get(imported.id);
    const row = detail.rows[0]!;
    const signed = await client.callImports.recordingUrl(imported.id, row.id);

    // the baselines, served by the same process
    const baselines = express();
    baselines.get('/calls', (_req, res) => {
      const rows = calls
        .map(
          (c) =>
            `<tr><td><a href="#${c.id}">${escapeHtml(c.conversation_id)}</a></td><td>${c.status}</td><td>${c.turns}</td></tr>`,
        )
        .join('');
      res
        .type('html')
        .send(
          `<!doctype html><title>calls</title><h1>${escapeHtml(run.suite_name)}</h1><table><tbody>${rows}</tbody></table>`,
        );
    });
    baselines.get('/audio', (_req, res) => {
      res.type('html').send('<!doctype html><title>audio</title><audio preload="auto"></audio>');
    });
    const baselineServer = baselines.listen(0, '127.0.0.1');
    await new Promise((resolve) => baselineServer.once('listening', resolve));
    const baselineUrl = `http://127.0.0.1:${(baselineServer.address() as { port: number }).port}`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${url}/console/login`);
    await page.getByLabel('E-mail').fill('bench@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Runs' }).waitFor();

    const runPage: number[] = [];
    const table: number[] = [];
    const waveform: number[] = [];
    const audio: number[] = [];
    for (let i = 0; i < CONSOLE_SETTINGS.runs; i++) {
      runPage.push(
        await timedNavigation(page, `${url}/console/runs/${run.id}`, (p) =>
          p.locator('table a[href*="/calls/"]').first().waitFor(),
        ),
      );
      table.push(
        await timedNavigation(page, `${baselineUrl}/calls`, (p) =>
          p
            .locator('tr')
            .nth(calls.length - 1)
            .waitFor(),
        ),
      );
      waveform.push(
        await timedNavigation(page, `${url}/console/calls/${row.id}?import=${imported.id}`, (p) =>
          p.locator('.wave[data-ready="true"]').waitFor({ timeout: 120_000 }),
        ),
      );
      audio.push(
        await timedNavigation(page, `${baselineUrl}/audio`, (p) =>
          p.evaluate(
            (src) =>
              new Promise<void>((resolve, reject) => {
                const element = document.querySelector('audio')!;
                element.oncanplay = () => resolve();
                element.onerror = () => reject(new Error(`media error ${element.error?.code}`));
                element.src = src;
              }),
            signed.url,
          ),
        ),
      );
    }
    baselineServer.close();
    const m = (values: number[]) => median(values);
    return {
      runs: CONSOLE_SETTINGS.runs,
      jsKb,
      cssKb,
      budgetRatio: (jsKb + cssKb) / CONSOLE_SETTINGS.budgetKb,
      runPageMs: m(runPage),
      tableMs: m(table),
      runPageRatio: m(runPage) / m(table),
      waveformMs: m(waveform),
      audioMs: m(audio),
      waveformRatio: m(waveform) / m(audio),
      wavMb: wav.length / 1024 / 1024,
    };
  } finally {
    await browser?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
