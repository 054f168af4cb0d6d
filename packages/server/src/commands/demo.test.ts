import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VoiceEval } from '@voice-eval/sdk';
import { afterEach, describe, expect, it } from 'vitest';

// the bin users run, as cli.test.ts runs it: a child process on the sources
const bin = fileURLToPath(new URL('../../bin/voice-eval.js', import.meta.url));
const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const start = (args: string[]) => {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', VOICE_EVAL_LOG_LEVEL: 'warn' },
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let [stdout, stderr] = ['', ''];
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with stdout once it contains `text`; rejects if the process ends first. */
  const printed = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (stdout.includes(text)) resolve(stdout);
      };
      child.stdout!.on('data', check);
      check();
      void exited.then((code) => reject(new Error(`exited ${code} before "${text}":\n${stdout}${stderr}`)));
    });
  return { child, exited, printed, stdout: () => stdout, stderr: () => stderr };
};

/** What the demo printed: the login and, per run, its link. */
const parseBanner = (stdout: string) => {
  const email = /E-mail:\s+(\S+)/.exec(stdout)?.[1];
  const password = /Password:\s+(\S+)/.exec(stdout)?.[1];
  const links = [...stdout.matchAll(/(Text|Voice) run:\s+(http:\/\/\S+)\/console\/runs\/([0-9a-f-]{36})\s/g)];
  return {
    email: email!,
    password: password!,
    base: links[0]?.[2],
    runs: Object.fromEntries(links.map((m) => [m[1]!.toLowerCase(), m[3]!])),
  };
};

const signIn = async (base: string, email: string, password: string) => {
  const session = await new VoiceEval({ baseUrl: base, logLevel: 'off' }).auth.login({ email, password });
  return {
    client: new VoiceEval({ baseUrl: base, accessToken: session.access_token, logLevel: 'off' }),
    token: session.access_token,
  };
};

describe('voice-eval demo', () => {
  it('seeds, runs and scores a text and a voice suite, clusters their failures, prints links and a login', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'voice-eval-demo-'));
    const demo = start(['demo', '--port', '0', '--data-dir', dir]);
    const banner = parseBanner(await demo.printed('Press Ctrl+C to stop.'));
    expect(banner.base).toMatch(/^http:\/\/localhost:\d+$/);
    expect(Object.keys(banner.runs).sort()).toEqual(['text', 'voice']);
    const base = banner.base!;
    const { client, token } = await signIn(base, banner.email, banner.password);

    for (const [channel, runId] of Object.entries(banner.runs)) {
      const run = await client.suiteRuns.get(runId);
      expect(run).toMatchObject({ status: 'completed', channel });
      expect(run.calls_completed).toBeGreaterThan(0);
      const evaluation = await client.evaluations.get(run.evaluation_id!);
      expect(evaluation.status).toBe('completed');
      const rows = (await client.evaluations.listRows(evaluation.id)).items;
      expect(rows.length).toBe(run.calls_completed);
      expect(rows.every((r) => r.status === 'completed' && r.results.length > 0)).toBe(true);
      // the seeded failures: a wrong price in every run, a slow voice agent
      expect(rows.some((r) => r.results.some((result) => result.flagged))).toBe(true);
      // the scope the console reads for a run (`/console/clusters?evaluation=`)
      const report = await client.evaluatorResults.metricClusters({ job_id: evaluation.id });
      expect(report.status).toBe('completed');
      expect(report.groups.some((g) => g.clusters.length > 0)).toBe(true);
    }

    // a voice call's recording, as the console plays it
    const voice = await client.suiteRuns.get(banner.runs.voice!);
    const [call] = (await client.suiteRuns.listCalls(voice.id)).items;
    const recording = await fetch(
      `${base}/api/v1/call-imports/${voice.call_import_id}/rows/${call!.call_import_row_id}/recording`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(recording.status).toBe(200);
    expect(recording.headers.get('content-type')).toMatch(/^audio\/wav/);
    expect((await recording.arrayBuffer()).byteLength).toBeGreaterThan(44);

    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);

    // a second start on the same folder reuses the organization and its login
    const again = start(['demo', '--port', '0', '--data-dir', dir]);
    const second = parseBanner(await again.printed('Press Ctrl+C to stop.'));
    expect(second).toMatchObject({ email: banner.email, password: banner.password });
    const { client: same } = await signIn(second.base!, second.email, second.password);
    const agents = (await same.agents.list()).items.map((a) => a.name).sort();
    expect(agents).toEqual(['Riverside Clinic (text)', 'Riverside Clinic (voice)']);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 600_000);

  it('refuses an unknown option with a usage error (exit 2)', async () => {
    const typo = start(['demo', '--typo']);
    expect(await typo.exited).toBe(2);
    expect(typo.stdout()).toBe('');
    expect(typo.stderr()).toBe("voice-eval demo: Unknown option '--typo' (see voice-eval demo --help)\n");
  }, 60_000);
});
