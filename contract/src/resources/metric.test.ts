import { describe, expect, it } from 'vitest';
import {
  FromDiscoveredBodySchema,
  MetricCreateBodySchema,
  MetricSchema,
  ParseBulkResponseSchema,
} from './metric.js';

const ID = '4b1c6f0e-8f5a-4c5e-9d1a-2f3b4c5d6e7f';
const NOW = '2026-11-21T10:00:00.000Z';

const makeMetric = (overrides: Record<string, unknown> = {}) => ({
  id: ID,
  organization_id: ID,
  workspace_id: ID,
  scope: 'workspace',
  name: 'Greets the caller',
  description: 'The agent greets the caller by name.',
  example: '',
  metric_type: 'boolean',
  metric_category: 'quality',
  trigger: 'always',
  enabled: true,
  is_default: false,
  metric_origin: 'user',
  supported_surfaces: ['voice'],
  enabled_surfaces: ['voice'],
  custom_data_type: 'boolean',
  custom_config: {},
  tags: [],
  capture_rationale: false,
  parent_metric_id: null,
  selection_mode: null,
  allow_discovery: false,
  compare_transcripts: false,
  lifecycle: 'active',
  version: 1,
  promoted_from_draft_at: null,
  studio_notes: '',
  children: [],
  created_at: NOW,
  updated_at: NOW,
  created_by: 'ada@example.com',
  ...overrides,
});

describe('MetricSchema', () => {
  it('accepts a flat metric and a parent with inlined children', () => {
    expect(MetricSchema.safeParse(makeMetric()).success).toBe(true);
    const parent = makeMetric({
      metric_type: 'category',
      selection_mode: 'multi_label',
      children: [makeMetric({ parent_metric_id: ID })],
    });
    expect(MetricSchema.safeParse(parent).success).toBe(true);
  });

  it('accepts an organization-scoped metric with a null workspace', () => {
    expect(MetricSchema.safeParse(makeMetric({ scope: 'organization', workspace_id: null })).success).toBe(
      true,
    );
  });

  it.each([
    ['an unknown metric_type', { metric_type: 'percentage' }],
    ['an unknown selection_mode', { selection_mode: 'any' }],
    ['a non-uuid id', { id: 'metric-1' }],
    ['a non-ISO timestamp', { created_at: 'yesterday' }],
    ['a missing name', { name: undefined }],
    ['grandchildren', { children: [makeMetric({ children: [makeMetric()] })] }],
  ])('rejects %s', (_label, overrides) => {
    expect(MetricSchema.safeParse(makeMetric(overrides)).success).toBe(false);
  });
});

describe('MetricCreateBodySchema', () => {
  it('needs only a name', () => {
    expect(MetricCreateBodySchema.parse({ name: 'Empathy' })).toEqual({ name: 'Empathy' });
  });

  it.each([
    {},
    { name: '' },
    { name: '   ' },
    { name: 'x', scope: 'team' },
    { name: 'x', parent_metric_id: 'p' },
  ])('rejects %j', (body) => {
    expect(MetricCreateBodySchema.safeParse(body).success).toBe(false);
  });
});

describe('FromDiscoveredBodySchema', () => {
  it('accepts boolean, rating and category only', () => {
    for (const metric_type of ['boolean', 'rating', 'category']) {
      expect(FromDiscoveredBodySchema.safeParse({ key: 'k', name: 'K', metric_type }).success).toBe(true);
    }
    expect(FromDiscoveredBodySchema.safeParse({ key: 'k', name: 'K', metric_type: 'number' }).success).toBe(
      false,
    );
  });
});

describe('ParseBulkResponseSchema', () => {
  it('accepts drafts with a source label and no parent', () => {
    const draft = {
      name: 'Refund handling',
      description: 'Handles refunds.',
      metric_type: 'boolean',
      custom_data_type: 'boolean',
      custom_config: {},
      supported_surfaces: [],
      enabled_surfaces: [],
      capture_rationale: true,
      suggested_tags: [],
      source_label: {
        label_name: 'Refund handling',
        definition: 'Handles refunds.',
        examples: ['"I want my money back"'],
      },
    };
    expect(ParseBulkResponseSchema.safeParse({ metrics: [draft], parent: null }).success).toBe(true);
    expect(
      ParseBulkResponseSchema.safeParse({ metrics: [{ ...draft, source_label: null }], parent: null })
        .success,
    ).toBe(false);
  });
});
