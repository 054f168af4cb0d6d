import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateReport,
  judgeReply,
  makeMetrics,
  makeProvider,
  type SeededMetrics,
  seedEvaluation,
  seededCalls,
} from '../../../test/factories/reports.js';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';
import { type JudgeDouble, startJudgeDouble } from '../../testing/judge.js';
import { errorReply, type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';

let h: Harness;
let headers: Headers;
let judge: JudgeDouble;
let llm: OpenAiDouble;
let metrics: SeededMetrics;
let providerId: string;

beforeAll(async () => {
  let reply: ReturnType<typeof judgeReply> = () => undefined;
  judge = await startJudgeDouble({ override: (call) => reply(call) });
  llm = await startOpenAiDouble();
  // the AI provider's double is on loopback
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  headers = await h.as('OWNER');
  metrics = await makeMetrics(h, headers);
  reply = judgeReply(metrics, seededCalls());
  const judgeId = await makeProvider(h, headers, judge.url, true);
  await seedEvaluation(h, headers, judgeId, metrics);
  await h.request('PATCH', `/api/v1/aiproviders/${judgeId}`, { headers, body: { is_active: false } });
  providerId = await makeProvider(h, headers, llm.url, true, [
    'gpt-4o-mini',
    'embeddings:text-embedding-3-small',
  ]);
});
afterAll(() => Promise.all([judge.close(), llm.close()]));

const embeddingRequests = () => llm.requests.filter((r) => r.path === '/v1/embeddings');

describe('metric clusters on embeddings', () => {
  it("clusters on the organization's embeddings model and reports it; one budget unit for the batch", async () => {
    const before = llm.requests.length;
    // a budget of one call: the embeddings batch takes it, no chat call follows
    const report = await generateReport(h, headers, { scope_key: 'embeddings', max_llm_calls: 1 });

    expect(report).toMatchObject({ status: 'completed', llm_calls_used: 1 });
    expect(report.clustering).toEqual({
      method: 'embeddings',
      provider: 'openai',
      model: 'text-embedding-3-small',
    });
    const sent = llm.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/v1/embeddings']);
    const body = sent[0]!.json as { model: string; input: string[] };
    expect(body.model).toBe('text-embedding-3-small');
    // every flagged reason once
    expect(new Set(body.input).size).toBe(body.input.length);
    const clustered = report.groups.flatMap((g) => g.clusters).reduce((sum, c) => sum + c.count, 0);
    expect(body.input.length).toBeGreaterThan(0);
    expect(body.input.length).toBeLessThanOrEqual(clustered);
    expect(report.groups.length).toBeGreaterThan(0);
  });

  it('falls back to words, and says so, when the embeddings call fails', async () => {
    llm.enqueue('/v1/embeddings', errorReply(400, 'This model does not support embeddings'));
    const report = await generateReport(h, headers, { scope_key: 'embeddings-failed', max_llm_calls: 1 });

    expect(report.status).toBe('completed');
    expect(report.clustering).toEqual({ method: 'words', provider: null, model: null });
    expect(report.error_message).toMatch(/model call\(s\) failed/);
    expect(report.groups.length).toBeGreaterThan(0);
  });

  it('uses words without an embeddings model, making no embeddings call', async () => {
    await h.request('PATCH', `/api/v1/aiproviders/${providerId}`, {
      headers,
      body: { enabled_models: ['gpt-4o-mini'] },
    });
    const before = embeddingRequests().length;
    const report = await generateReport(h, headers, { scope_key: 'no-embeddings', max_llm_calls: 1 });
    expect(report.clustering).toEqual({ method: 'words', provider: null, model: null });
    expect(embeddingRequests().length).toBe(before);
  });
});
