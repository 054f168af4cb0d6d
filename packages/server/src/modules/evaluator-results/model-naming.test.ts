import { describe, expect, it } from 'vitest';
import { toReportGap } from './model-naming.js';

describe('toReportGap', () => {
  it("maps the prompt's gap labels onto the report's", () => {
    expect(toReportGap('INSTRUCTION_GAP', [])).toBe('PROMPT_GAP');
    expect(toReportGap('SPEECH_GAP', ['The agent misheard the surname.'])).toBe('ASR_GAP');
    expect(toReportGap('SPEECH_GAP', ['Long silence before every reply.'])).toBe('LATENCY_GAP');
    for (const same of ['LOGIC_GAP', 'KNOWLEDGE_GAP', 'TOOL_GAP', 'POLICY_GAP', 'OTHER'] as const) {
      expect(toReportGap(same, [])).toBe(same);
    }
  });
});
