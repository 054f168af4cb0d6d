import type { Metric } from '@voice-eval/contract';
import type { Ref } from 'react';
import { choose, isChosen, type LabelKind, type LabelValue, sameValue, valueText } from './choices.ts';

/**
 * One metric of the labelling panel: its values as buttons (the Nth answering digit N), or an
 * input for a number; the judge's value said beside the name, and marked once corrected.
 */
export const MetricChoice = ({
  metric,
  kind,
  value,
  proposal,
  text,
  current,
  inputRef,
  onPick,
  onType,
  onFocus,
}: {
  metric: Metric;
  kind: LabelKind;
  /** The value the label will have: the pick, else the label given before, else the judge's. */
  value: LabelValue | undefined;
  /** The judge's value; undefined when the judge gave none. */
  proposal: LabelValue | undefined;
  /** What the input holds (a number or a category typed). */
  text: string;
  current: boolean;
  inputRef: Ref<HTMLInputElement>;
  onPick: (value: LabelValue) => void;
  onType: (text: string) => void;
  onFocus: () => void;
}) => {
  const corrected = proposal !== undefined && value !== undefined && !sameValue(value, proposal);
  return (
    <li className={`label-metric${current ? ' current' : ''}`} aria-current={current ? 'true' : undefined}>
      <fieldset onFocus={onFocus}>
        <legend>
          <strong>{metric.name}</strong>{' '}
          <span className="muted">
            judge: {proposal === undefined ? 'no verdict' : valueText(proposal)}
            {kind.kind === 'choice' && kind.multi ? ' · several allowed' : ''}
          </span>
          {corrected && <span className="badge warn">corrected</span>}
        </legend>
        {kind.kind === 'choice' ? (
          <div className="choices">
            {kind.choices.map((choice, i) => (
              <button
                key={String(choice.value)}
                type="button"
                aria-pressed={isChosen(value, choice)}
                aria-keyshortcuts={i < 9 ? String(i + 1) : undefined}
                className={proposal !== undefined && isChosen(proposal, choice) ? 'judged' : undefined}
                onClick={() => {
                  const next = choose(kind, value, i + 1);
                  if (next !== undefined) onPick(next);
                }}
              >
                {i < 9 && <kbd>{i + 1}</kbd>} {choice.label}
              </button>
            ))}
          </div>
        ) : (
          <input
            ref={inputRef}
            type={kind.kind === 'number' ? 'number' : 'text'}
            aria-label={`${metric.name}: value`}
            min={kind.kind === 'number' ? (kind.min ?? undefined) : undefined}
            max={kind.kind === 'number' ? (kind.max ?? undefined) : undefined}
            step={kind.kind === 'number' ? 'any' : undefined}
            value={text}
            placeholder={kind.kind === 'text' && kind.multi ? 'labels, comma-separated' : undefined}
            onChange={(e) => onType(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
          />
        )}
      </fieldset>
    </li>
  );
};
