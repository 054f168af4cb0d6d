import { MetricClustersReportSchema } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import type { ReportRow } from './repo.js';
import { type LiveState, toReport } from './report-wire.js';

const live: LiveState = {
  scope: {
    agent_id: null,
    scenario_ids: [],
    suite_id: null,
    job_id: null,
    since: null,
    until: null,
    scope_key: 'k',
  },
  names: { agentId: null, agentName: null, scenarioIds: [], scenarioNames: [] },
  policies: { entries: [], source: 'inferred', updatedAt: null, fingerprint: 'f' },
  completed: { rows: 1, calls: 1 },
};

/** Evidence as reports stored it before a quote was placed in its call. */
const storedEvidence = {
  conversation_id: 'call-1',
  evaluation_row_id: '00000000-0000-4000-8000-000000000001',
  quote: 'The price is 40 dollars.',
  turns: [{ speaker: 'agent', text: 'The price is 40 dollars.' }],
};

describe('a report stored before evidence was placed', () => {
  it('reads with the place of each quote null, as the contract allows', () => {
    const cluster = {
      id: 'c1',
      label: 'Wrong price',
      gap_label: 'KNOWLEDGE_GAP',
      level: 1,
      count: 1,
      share_pct: 100,
      sub_clusters: [],
      observation: 'o',
      failure_reason: 'r',
      evidence: [storedEvidence],
      is_discovered: false,
    };
    const row = {
      status: 'completed',
      generated_at: new Date('2026-11-01T00:00:00Z'),
      generated_at_completed_rows: 1,
      policies_fingerprint: 'f',
      result: {
        overview: '',
        groups: [
          {
            metric_id: '00000000-0000-4000-8000-000000000002',
            metric_name: 'M',
            flagged_count: 1,
            failure_reason: 'r',
            clusters: [cluster],
          },
        ],
        discovered_problems: [],
        selected_evaluation_row_ids: [],
      },
    } as unknown as ReportRow;
    const report = toReport(row, live);
    expect(report.groups[0]?.clusters[0]?.evidence[0]).toEqual({
      ...storedEvidence,
      call_import_row_id: null,
      turn_index: null,
      start_ms: null,
      end_ms: null,
    });
    const parsed = MetricClustersReportSchema.shape.groups.safeParse(report.groups);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
