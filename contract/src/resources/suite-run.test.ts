import { describe, expect, it } from 'vitest';
import { SuiteRunSchema } from './suite-run.js';
import { SuiteRunSettledDataSchema, WebhookEventSchema } from './webhook-event.js';

const ID = '4b1c6f0e-8f5a-4c5e-9d1a-2f3b4c5d6e7f';
const NOW = '2026-11-21T10:00:00.000Z';
const PAGE = `https://evals.example.com/voice/console/runs/${ID}`;

/** A run as a server older than `console_url` sends it. */
const olderRun = {
  id: ID,
  organization_id: ID,
  workspace_id: ID,
  suite_id: ID,
  suite_name: 'Booking agent',
  agent_id: ID,
  status: 'completed',
  trigger: 'api',
  channel: 'text',
  runs_per_combination: 1,
  combination_ids: [ID],
  baseline_run_id: null,
  calls_total: 1,
  calls_pending: 0,
  calls_running: 0,
  calls_completed: 1,
  calls_failed: 0,
  calls_cancelled: 0,
  call_import_id: ID,
  evaluation_id: ID,
  pass_rate: 1,
  metric_summary: [],
  combination_summary: [],
  voice_summary: null,
  error_message: null,
  started_at: NOW,
  finished_at: NOW,
  created_at: NOW,
  updated_at: NOW,
  created_by: 'ada@example.test',
};

const settled = {
  suite_run_id: ID,
  suite_id: ID,
  workspace_id: ID,
  evaluation_id: ID,
  status: 'completed',
  pass_rate: 1,
  error_message: null,
};

describe('console_url', () => {
  it("is the run's console page, or null, on a suite run; a run of an older server reads as null", () => {
    expect(SuiteRunSchema.parse({ ...olderRun, console_url: PAGE }).console_url).toBe(PAGE);
    expect(SuiteRunSchema.parse({ ...olderRun, console_url: null }).console_url).toBeNull();
    expect(SuiteRunSchema.parse(olderRun).console_url).toBeNull();
    expect(SuiteRunSchema.safeParse({ ...olderRun, console_url: 7 }).success).toBe(false);
  });

  it('is in suite_run events, may be null, and is absent from events of older servers', () => {
    const event = (data: object) =>
      WebhookEventSchema.parse({ type: 'suite_run.completed', timestamp: NOW, data });
    expect(event({ ...settled, console_url: PAGE }).data).toMatchObject({ console_url: PAGE });
    expect(event({ ...settled, console_url: null }).data).toMatchObject({ console_url: null });
    expect(event(settled).data).not.toHaveProperty('console_url');
    expect(SuiteRunSettledDataSchema.safeParse({ ...settled, console_url: 7 }).success).toBe(false);
  });
});
