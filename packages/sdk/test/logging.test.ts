import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();

const capture = () => {
  const lines: Array<{ level: string; message: string; data?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) =>
    lines.push({ level, message, data });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger };
};

describe('logging', () => {
  it('logs requests at debug with credentials redacted', async () => {
    const { lines, logger } = capture();
    await client({ apiKey: 've_live_secret', logger, logLevel: 'debug' }).tags.list();
    const request = lines.find((l) => l.message === 'request');
    expect(request?.data?.headers).toMatchObject({ 'x-api-key': '***' });
    expect(JSON.stringify(lines)).not.toContain('ve_live_secret');
    expect(lines.find((l) => l.message === 'response')?.data).toMatchObject({
      status: 200,
      requestId: expect.any(String),
    });
  });

  it('redacts bearer tokens too', async () => {
    const { lines, logger } = capture();
    await client({ apiKey: undefined, accessToken: 'secret-token', logger, logLevel: 'debug' }).tags.list();
    expect(JSON.stringify(lines)).not.toContain('secret-token');
    expect(lines[0]?.data?.headers).toMatchObject({ authorization: '***' });
  });

  it('logs retries at info and nothing below warn by default', async () => {
    server.use(api.scenarios.flaky({ failTimes: 1 }));
    const { lines, logger } = capture();
    await client({ logger, logLevel: 'info' }).tags.list();
    expect(lines.map((l) => l.message)).toEqual(['retrying']);
    expect(lines[0]?.data).toMatchObject({ attempt: 1, reason: 503 });
    const quiet = capture();
    server.use(api.scenarios.flaky({ failTimes: 1 }));
    await client({ logger: quiet.logger, logLevel: undefined }).tags.list();
    expect(quiet.lines).toEqual([]);
  });

  it('VOICE_EVAL_LOG sets the level when the option does not', async () => {
    vi.stubEnv('VOICE_EVAL_LOG', 'debug');
    try {
      const { lines, logger } = capture();
      await client({ logger, logLevel: undefined }).tags.list();
      expect(lines.map((l) => l.level)).toEqual(['debug', 'debug']);
      const off = capture();
      await client({ logger: off.logger, logLevel: 'off' }).tags.list();
      expect(off.lines).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('warns when an endpoint is deprecated', async () => {
    const { lines, logger } = capture();
    await client({ logger, logLevel: undefined }).evaluators.bulk({
      agent_id: '00000000-0000-4000-8000-000000000001',
      scenario_id: '00000000-0000-4000-8000-000000000002',
      persona_ids: ['00000000-0000-4000-8000-000000000003'],
    });
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', message: 'deprecated endpoint' })]);
  });
});
