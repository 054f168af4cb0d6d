import { ApiError } from '@voice-eval/sdk';
import { useEffect, useId, useRef, useState } from 'react';

/** An error in one line, for an outcome shown beside the button that caused it. */
export const problemText = (error: unknown): string =>
  error instanceof ApiError
    ? `${error.detail ?? error.message} (HTTP ${error.status}${error.code ? ` ${error.code}` : ''})`
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * A button that asks before it acts: the first press shows the question with the confirming
 * button (focused) and Cancel, which puts the focus back.
 */
export const ConfirmButton = ({
  label,
  subject,
  question,
  onConfirm,
  disabled = false,
}: {
  /** The verb on the button, e.g. `Revoke`. */
  label: string;
  /** What it acts on, completing the button's accessible name (`Revoke CI key`). */
  subject: string;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
}) => {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  const questionId = useId();
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) askRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking)
    return (
      <button
        type="button"
        ref={askRef}
        disabled={disabled}
        aria-label={`${label} ${subject}`}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  return (
    <span className="confirm">
      <span id={questionId}>{question}</span>{' '}
      <button
        type="button"
        className="danger"
        ref={confirmRef}
        aria-describedby={questionId}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>{' '}
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
};

/** A secret the API shows once (a new API key, a webhook signing secret), in a live region. */
export const ShownOnce = ({
  what,
  value,
  onDone,
}: {
  what: string;
  value: string | null;
  onDone: () => void;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <div aria-live="polite">
      {value !== null && (
        <div className="once">
          <p>
            <strong>{what}</strong>: copy it now, it is not shown again.
          </p>
          <p>
            <code data-testid="secret">{value}</code>
          </p>
          <div className="actions">
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(value).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button
              type="button"
              onClick={() => {
                setCopied(false);
                onDone();
              }}
            >
              Done
            </button>
          </div>
        </div>
      )}
    </div>
  );
};
