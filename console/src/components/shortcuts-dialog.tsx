import { Fragment, useEffect, useRef } from 'react';

/** A page's own key beside the call's: the key(s) as shown, and what it does. */
export type Shortcut = { keys: string; does: string };

/**
 * The call page's keyboard shortcuts, as a modal dialog; a page that adds keys of its own (the
 * labelling page) lists them after, under their title.
 */
export const HelpDialog = ({
  onClose,
  extra,
}: {
  onClose: () => void;
  extra?: { title: string; shortcuts: readonly Shortcut[] } | undefined;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      {extra && <h3>The call</h3>}
      <dl className="shortcuts">
        <dt>Space</dt>
        <dd>Play or pause</dd>
        <dt>← →</dt>
        <dd>Back or forward 5 seconds</dd>
        <dt>j k</dt>
        <dd>Next or previous turn</dd>
        <dt>[ ]</dt>
        <dd>Previous or next quote of a flagged verdict</dd>
        <dt>?</dt>
        <dd>Show or hide this help</dd>
      </dl>
      {extra && (
        <>
          <h3>{extra.title}</h3>
          <dl className="shortcuts">
            {extra.shortcuts.map((s) => (
              <Fragment key={s.keys}>
                <dt>{s.keys}</dt>
                <dd>{s.does}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
};
