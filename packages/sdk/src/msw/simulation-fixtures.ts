import {
  AgentTestResultSchema,
  SuiteRunCallSchema,
  SuiteRunComparisonSchema,
  SuiteRunSchema,
} from '@voice-eval/contract';
import type { z } from 'zod';
import {
  type Fixture,
  type Fixtures,
  MOCK_ORGANIZATION_ID,
  MOCK_USER_ID,
  MOCK_WORKSPACE_ID,
} from './fixture-types.js';

/** `define(seq)` of fixtures.ts: a schema, then its defaults, give a fixture factory. */
export type DefineFixture = <S extends z.ZodTypeAny>(
  schema: S,
) => (defaults: (n: number) => Partial<z.input<S>>) => Fixture<z.infer<S>>;

type SimulationFixtures = Pick<
  Fixtures,
  'agentTestResult' | 'suiteRun' | 'suiteRunCall' | 'suiteRunComparison'
>;

/** The greeting a mocked agent answers a connection test with. */
export const MOCK_GREETING = 'Hello, thanks for calling. How can I help you today?';

/** Fixtures of simulated calls: connection tests, suite runs, their calls and comparisons. */
export const createSimulationFixtures = (fixture: DefineFixture): SimulationFixtures => ({
  agentTestResult: fixture(AgentTestResultSchema)(() => ({
    ok: true,
    kind: 'openai_chat',
    greeting: MOCK_GREETING,
    latency_ms: 120,
  })),
  suiteRun: fixture(SuiteRunSchema)((n) => ({
    organization_id: MOCK_ORGANIZATION_ID,
    workspace_id: MOCK_WORKSPACE_ID,
    suite_name: `Suite ${n}`,
    status: 'pending',
    trigger: 'api',
    channel: 'text',
    voice_summary: null,
    runs_per_combination: 1,
    created_by: MOCK_USER_ID,
  })),
  suiteRunCall: fixture(SuiteRunCallSchema)((n) => ({
    conversation_id: `simulated-${n}`,
    repetition: 1,
    status: 'pending',
    voice_measures: null,
  })),
  suiteRunComparison: fixture(SuiteRunComparisonSchema)(() => ({
    significance_level: 0.05,
    voice: [],
    regressed: false,
  })),
});
