import type { ReviewQueue } from '@voice-eval/contract';

/** Done of total as a bar and in words, with the calls held now. */
export const Progress = ({ queue }: { queue: ReviewQueue }) => {
  const { done, total, claimed, open } = queue.counts;
  return (
    <div className="review-progress">
      <progress value={done} max={Math.max(total, 1)} aria-label={`${queue.name}: done`} />
      <span>
        {done} of {total} done
      </span>
      <span className="muted">
        {claimed} being labelled · {open} open
      </span>
    </div>
  );
};
