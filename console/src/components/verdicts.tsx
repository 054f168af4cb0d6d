import type { EvaluationResult } from '@voice-eval/contract';
import { useEffect, useRef } from 'react';

/** A call's verdicts, flagged first; each evidence quote goes to the turn it cites. */
export const Verdicts = ({
  results,
  selected,
  onQuote,
}: {
  results: EvaluationResult[];
  selected: string | undefined;
  onQuote: (turnIndex: number) => void;
}) => {
  const ordered = [...results].sort((a, b) => Number(b.flagged) - Number(a.flagged));
  const selectedRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    // scrollIntoView returns a promise in newer browsers: not an effect's clean-up
    void selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <ul className="verdicts">
      {ordered.map((result) => (
        <li
          key={result.metric_id}
          ref={result.metric_id === selected ? selectedRef : undefined}
          className={`verdict${result.flagged ? ' flagged' : ''}${result.metric_id === selected ? ' selected' : ''}`}
        >
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
                  <button
                    type="button"
                    onClick={() => onQuote(e.turn_index)}
                    data-evidence-turn={e.turn_index}
                  >
                    “{e.quote}” <span className="muted">turn {e.turn_index + 1}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
};

const verdictValue = (value: EvaluationResult['value']): string =>
  value === null ? 'no value' : Array.isArray(value) ? value.join(', ') : String(value);
