import { useEffect, useRef } from 'react';

/** The call page's keyboard shortcuts, as a modal dialog. */
export const HelpDialog = ({ onClose }: { onClose: () => void }) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
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
      <button type="button" onClick={onClose}>
        Close
      </button>
    </dialog>
  );
};
