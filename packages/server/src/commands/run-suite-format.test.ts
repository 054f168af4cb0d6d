import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { describe, expect, it } from 'vitest';
import { formatSummary } from './run-suite-format.js';

// Only the fixtures: schema-valid runs to print.
const { fixtures } = createVoiceEvalMocks();
const passed = { passed: true, reasons: [], notes: [] };

describe('formatSummary', () => {
  it("prints the run's console page after its status line", () => {
    const run = fixtures.suiteRun({ status: 'completed', pass_rate: 0.75 });
    const url = `https://evals.example.com/voice/console/runs/${run.id}`;
    const lines = formatSummary({ ...run, console_url: url }, undefined, passed, undefined);
    expect(lines.slice(0, 3)).toEqual([
      `Suite "${run.suite_name}" run ${run.id}: completed, 0 calls (0 completed, 0 failed)`,
      `Console: ${url}`,
      'Pass rate: 75.0%',
    ]);
  });

  it('prints no console line when the server gives no link', () => {
    const run = fixtures.suiteRun({ status: 'failed', error_message: 'No call completed.' });
    expect(run.console_url).toBeNull();
    const lines = formatSummary(run, undefined, passed, undefined);
    expect(lines.some((l) => l.startsWith('Console:'))).toBe(false);
    expect(lines[1]).toBe('Error: No call completed.');
  });
});
