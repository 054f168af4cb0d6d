import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/setup-db.js';
import { recordUsage } from './record-usage.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

describe('recordUsage', () => {
  it('writes one row per call with tokens, prompt and attempts', async () => {
    const [org] = await t.db('organizations').insert({ name: 'Usage Org' }).returning('id');
    const hook = recordUsage(
      { db: t.db, logger: pino({ level: 'silent' }) },
      { organizationId: org.id, purpose: 'metric.generate' },
    );
    await hook({
      kind: 'chat',
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      prompt: { id: 'metric-generate', version: 1 },
      attempts: 2,
      duration_ms: 812.4,
    });
    const rows = await t.db('provider_usage').where({ organization_id: org.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      purpose: 'metric.generate',
      kind: 'chat',
      model: 'gpt-4o-mini',
      prompt_id: 'metric-generate',
      prompt_version: 1,
      total_tokens: 150,
      attempts: 2,
      duration_ms: 812,
    });
  });

  it('logs and swallows a failed write', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const hook = recordUsage(
      { db: t.db, logger },
      { organizationId: '00000000-0000-4000-8000-000000000000', purpose: 'x' },
    );
    await expect(
      hook({
        kind: 'chat',
        provider: 'p',
        model: null,
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        prompt: null,
        attempts: 1,
        duration_ms: 1,
      }),
    ).resolves.toBeUndefined();
    expect(lines.join('')).toContain('provider_usage:record_failed');
  });
});
