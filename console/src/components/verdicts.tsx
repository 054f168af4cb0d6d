import type { EvaluationResult } from '@voice-eval/contract';
import { useEffect, useRef } from 'react';
import { groupsOf, type ParentMetric } from '../verdict-groups.ts';

export type { ParentMetric };

/** A call's verdicts, flagged first, children under their parent; each quote goes to the turn it cites. */
export const Verdicts = ({
  results,
  parentOf,
  selected,
  onQuote,
}: {
  results: EvaluationResult[];
  /** Child metric id to its parent. */
  parentOf: Map<string, ParentMetric>;
  selected: string | undefined;
  onQuote: (turnIndex: number) => void;
}) => {
  const selectedRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // scrollIntoView returns a promise in newer browsers: not an effect's clean-up
    void selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const verdict = (result: EvaluationResult) => (
    <Verdict
      key={result.metric_id}
      result={result}
      ref={result.metric_id === selected ? selectedRef : undefined}
      selected={result.metric_id === selected}
      onQuote={onQuote}
    />
  );
  return (
    <ul className="verdicts">
      {groupsOf(results, parentOf).map((group) =>
        group.parent ? (
          <li key={group.parent.id} className={`verdict-group${group.flagged ? ' flagged' : ''}`}>
            <div className="verdict-head">
              <strong>{group.parent.name}</strong>
              <span className={group.flagged ? 'badge bad' : 'badge good'}>
                {group.flagged ? 'flagged' : 'passed'}
              </span>
              {group.own && <span className="muted">{verdictValue(group.own.value)}</span>}
            </div>
            {group.own?.rationale && <p>{group.own.rationale}</p>}
            <ul className="verdicts" aria-label={`${group.parent.name}: sub-metrics`}>
              {group.results.map(verdict)}
            </ul>
          </li>
        ) : (
          group.results.map(verdict)
        ),
      )}
    </ul>
  );
};

const Verdict = ({
  result,
  ref,
  selected,
  onQuote,
}: {
  result: EvaluationResult;
  ref: React.Ref<HTMLLIElement> | undefined;
  selected: boolean;
  onQuote: (turnIndex: number) => void;
}) => (
  <li ref={ref} className={`verdict${result.flagged ? ' flagged' : ''}${selected ? ' selected' : ''}`}>
    <div className="verdict-head">
      <strong>{result.metric_name}</strong>
      <span className={result.flagged ? 'badge bad' : 'badge good'}>
        {result.flagged ? 'flagged' : 'passed'}
      </span>
      <span className="muted">{verdictValue(result.value)}</span>
    </div>
    {result.rationale && <p>{result.rationale}</p>}
    {result.evidence.length > 0 && (
      <ul className="evidence">
        {result.evidence.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: quotes may repeat
          <li key={i}>
            <button type="button" onClick={() => onQuote(e.turn_index)} data-evidence-turn={e.turn_index}>
              “{e.quote}” <span className="muted">turn {e.turn_index + 1}</span>
            </button>
          </li>
        ))}
      </ul>
    )}
  </li>
);

const verdictValue = (value: EvaluationResult['value']): string =>
  value === null ? 'no value' : Array.isArray(value) ? value.join(', ') : String(value);
