import type { VoiceEvalServerOptions } from '../src/server.js';
import { type JudgeDouble, type JudgeDoubleOptions, startJudgeDouble } from '../src/testing/judge.js';
import { createHarness, type Harness } from './harness.js';

/** The server's default LLM pointed at a judge double. */
export const judgeEnv = (judge: Pick<JudgeDouble, 'url'>) => ({
  VOICE_EVAL_LLM_BASE_URL: judge.url,
  VOICE_EVAL_LLM_API_KEY: 'sk-judge',
  VOICE_EVAL_LLM_MODEL: 'judge',
});

/**
 * A harness whose server scores with a judge double as its default LLM, the two started together
 * (the test closes the judge in its `afterAll`; the harness closes itself).
 */
export const createJudgeHarness = async (
  judgeOptions: JudgeDoubleOptions = {},
  options: VoiceEvalServerOptions = {},
): Promise<{ h: Harness; judge: JudgeDouble }> => {
  const judge = await startJudgeDouble(judgeOptions);
  const h = await createHarness({ ...options, env: { ...judgeEnv(judge), ...options.env } });
  return { h, judge };
};
