import type { EvaluationResult } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { groupsOf, type ParentMetric } from './verdict-groups.ts';

const result = (metric_id: string, flagged: boolean): EvaluationResult => ({
  metric_id,
  metric_name: metric_id,
  value: !flagged,
  flagged,
  rationale: null,
  evidence: [],
  metric_version: 1,
});

describe('groupsOf', () => {
  const tone: ParentMetric = { id: 'tone', name: 'Tone' };
  const parentOf = new Map([
    ['polite', tone],
    ['warm', tone],
  ]);

  it('puts each child under its parent, with the parent’s own verdict, flagged when a child is', () => {
    const groups = groupsOf([result('polite', false), result('tone', false), result('warm', true)], parentOf);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ parent: tone, own: { metric_id: 'tone' }, flagged: true });
    // within the group, flagged first
    expect(groups[0]!.results.map((r) => r.metric_id)).toEqual(['warm', 'polite']);
  });

  it('keeps metrics without a parent as groups of one, flagged groups first, else in order', () => {
    const groups = groupsOf(
      [result('greets', false), result('polite', false), result('books', true)],
      parentOf,
    );
    expect(groups.map((g) => [g.parent?.id, g.results.map((r) => r.metric_id), g.flagged])).toEqual([
      [undefined, ['books'], true],
      [undefined, ['greets'], false],
      ['tone', ['polite'], false],
    ]);
  });

  it('groups nothing without a hierarchy', () => {
    const groups = groupsOf([result('a', true), result('b', false)], new Map());
    expect(groups.map((g) => g.results[0]!.metric_id)).toEqual(['a', 'b']);
    expect(groups.every((g) => g.parent === undefined && g.own === undefined)).toBe(true);
  });
});
