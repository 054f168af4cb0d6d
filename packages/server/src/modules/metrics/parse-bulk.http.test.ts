import { ParseBulkResponseSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import {
  chatReply,
  errorReply,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../../testing/openai-compatible.js';

/** `h` has the server default provider on `double`; `bare` has none. */
let h: Harness;
let bare: Harness;
let double: OpenAiDouble;

beforeAll(async () => {
  double = await startOpenAiDouble();
  [h, bare] = await Promise.all([
    createHarness({ env: { VOICE_EVAL_LLM_BASE_URL: double.url, VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini' } }),
    createHarness(),
  ]);
});
afterAll(() => double.close());

const parse = async (body: Record<string, unknown>, harness = h) =>
  harness.request('POST', '/api/v1/metrics/parse-bulk', { headers: await harness.as('MEMBER'), body });

/** Five layouts of the same two labels. */
const RUBRICS: Array<[string, string]> = [
  [
    'plain keys',
    'Label #1\nName: Greeting\nDefinition: Greets the caller.\nExamples:\n- "Hello"\n\nLabel #2\nName: Farewell\nDefinition: Says goodbye.\nExamples:\n- "Bye"',
  ],
  [
    'markdown headings and CRLF',
    '# Rubric\r\n\r\n## Label #1: Greeting\r\n**Definition:** Greets the caller.\r\n**Examples:**\r\n1. Hello\r\n\r\n## Label #2: Farewell\r\n**Definition:** Says goodbye.\r\n**Examples:**\r\n1. Bye',
  ],
  [
    'nested bullets',
    '- **Label #1**\n  - Name: Greeting\n  - Description: Greets the caller.\n  - Examples: "Hello"\n- **Label #2**\n  - Name: Farewell\n  - Description: Says goodbye.\n  - Examples: "Bye"',
  ],
  [
    'numbered headers with free text',
    '1. Label #1 - Greeting\nGreets the caller.\ne.g. "Hello"\n\n2. Label #2 - Farewell\nSays goodbye.\ne.g. "Bye"',
  ],
  [
    'headed sections and rules',
    '### Label #1\n#### Name\nGreeting\n#### Definition\nGreets the caller.\n#### Examples\n* Hello\n\n---\n\n### Label #2\n#### Name\nFarewell\n#### Definition\nSays goodbye.\n#### Examples\n* Bye',
  ],
];

describe('POST /metrics/parse-bulk', () => {
  it.each(
    RUBRICS,
  )('parses a rubric with %s into boolean drafts with capture_rationale', async (_layout, prompt) => {
    const before = await h.db('metrics').count({ n: '*' });
    const reply = await parse({ prompt });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const parsed = ParseBulkResponseSchema.parse(reply.body);
    expect(parsed.parent).toBeNull();
    expect(parsed.metrics).toEqual([
      {
        name: 'Greeting',
        description: 'Greets the caller.',
        metric_type: 'boolean',
        custom_data_type: 'boolean',
        custom_config: {},
        supported_surfaces: ['voice'],
        enabled_surfaces: ['voice'],
        capture_rationale: true,
        suggested_tags: [],
        source_label: { label_name: 'Greeting', definition: 'Greets the caller.', examples: ['Hello'] },
      },
      expect.objectContaining({
        name: 'Farewell',
        source_label: { label_name: 'Farewell', definition: 'Says goodbye.', examples: ['Bye'] },
      }),
    ]);
    expect(await h.db('metrics').count({ n: '*' })).toEqual(before);
  });

  it('makes the labels children of a parent category when hierarchy fields are given', async () => {
    const reply = await parse({
      prompt: RUBRICS[0]![1],
      parent_name: 'Call Phases',
      parent_description: 'Where the call is',
    });
    expect(reply.body.parent).toEqual({
      name: 'Call Phases',
      description: 'Where the call is',
      selection_mode: 'multi_label',
      supported_surfaces: ['voice'],
      enabled_surfaces: ['voice'],
    });
    expect(reply.body.metrics.map((m: { suggested_tags: string[] }) => m.suggested_tags)).toEqual([
      ['call phases'],
      ['call phases'],
    ]);
    const single = await parse({
      prompt: RUBRICS[0]![1],
      parent_name: 'Phase',
      selection_mode: 'single_choice',
    });
    expect(single.body.parent.selection_mode).toBe('single_choice');
  });

  it('refuses hierarchy fields without parent_name and a rubric without Label #N blocks (422)', async () => {
    expectProblem(
      await parse({ prompt: RUBRICS[0]![1], selection_mode: 'multi_label' }),
      422,
      'rule_violation',
    );
    const none = await parse({ prompt: 'Greeting: says hello\nFarewell: says bye' });
    expectProblem(none, 422, 'rule_violation');
    expect(none.body.errors[0].path).toBe('body.prompt');
    expectProblem(await parse({ prompt: '' }), 422, 'validation_failed');
    const many = Array.from({ length: 51 }, (_, i) => `Label #${i + 1}\nName: L${i + 1}`).join('\n');
    expect((await parse({ prompt: many })).body.metrics).toHaveLength(51);
    expectProblem(await parse({ prompt: many, enrich_descriptions: true }), 422, 'rule_violation');
  });

  it('needs no AI provider unless enrichment is asked for', async () => {
    expect((await parse({ prompt: RUBRICS[1]![1] }, bare)).status).toBe(200);
    expectProblem(
      await parse({ prompt: RUBRICS[1]![1], enrich_descriptions: true }, bare),
      422,
      'ai_provider_not_configured',
    );
  });

  it('enriches each description through the provider and keeps the source label as written', async () => {
    const enriched = (n: number) => ({
      description: `Judge-ready description ${n}.`,
      pass_criteria: [`counts ${n}`],
      fail_criteria: [`near miss ${n}`],
      examples: ['Hello'],
    });
    double.enqueue('/v1/chat/completions', chatReply(enriched(1)), chatReply(enriched(2)));
    const sentBefore = double.requests.length;
    const reply = await parse({ prompt: RUBRICS[0]![1], enrich_descriptions: true, parent_name: 'Phases' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const sent = double.requests.slice(sentBefore).map((r) => JSON.stringify(r.json));
    expect(sent).toHaveLength(2);
    expect(sent.every((s) => s.includes('enriched_rubric') && s.includes('Category: Phases'))).toBe(true);
    const descriptions = reply.body.metrics.map((m: { description: string }) => m.description).sort();
    expect(descriptions[0]).toBe(
      'Judge-ready description 1.\n\nCounts when:\n- counts 1\n\nDoes not count when:\n- near miss 1',
    );
    expect(descriptions[1]).toContain('Judge-ready description 2.');
    expect(reply.body.metrics[0].source_label.definition).toBe('Greets the caller.');
  });

  it('enriches at most 4 labels at a time and starts no call after the first failure', async () => {
    const rubric = Array.from(
      { length: 10 },
      (_, i) => `Label #${i + 1}\nName: Label ${i + 1}\nDefinition: Does thing ${i + 1}.`,
    ).join('\n\n');
    const slow = {
      ...chatReply({ description: 'Slow.', pass_criteria: [], fail_criteria: [], examples: [] }),
      delayMs: 300,
    };
    // the first call fails after 100 ms, with all four in flight; the other three answer later
    double.enqueue(
      '/v1/chat/completions',
      { ...errorReply(400, 'bad request'), delayMs: 100 },
      slow,
      slow,
      slow,
    );
    const sentBefore = double.requests.length;
    expectProblem(await parse({ prompt: rubric, enrich_descriptions: true }), 502, 'provider_error');
    // wait past the slow replies (a models listing the double answers after them), then count
    double.enqueue('/v1/models', { json: { data: [] }, delayMs: 600 });
    await fetch(`${double.url}/models`);
    const chats = double.requests.slice(sentBefore).filter((r) => r.path === '/v1/chat/completions');
    expect(chats).toHaveLength(4);
  });

  it('fails the whole request when one enrichment call fails', async () => {
    double.enqueue('/v1/chat/completions', errorReply(400, 'bad request'), errorReply(400, 'bad request'));
    expectProblem(await parse({ prompt: RUBRICS[0]![1], enrich_descriptions: true }), 502, 'provider_error');
  });
});
