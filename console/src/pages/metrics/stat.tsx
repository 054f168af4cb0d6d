/** A statistic with its 95% interval, as the agreement reports it. */
export type Estimate = { estimate: number; low: number; high: number } | null;

const fixed = (value: number, share: boolean) => (share ? `${(value * 100).toFixed(1)}%` : value.toFixed(3));

/** A statistic with its 95% interval, or a dash when it is undefined for these items. */
export const Stat = ({ value, share = false }: { value: Estimate; share?: boolean }) =>
  value === null ? (
    <span className="muted">–</span>
  ) : (
    <span>
      {fixed(value.estimate, share)}{' '}
      <span className="muted">
        [{fixed(value.low, share)}–{fixed(value.high, share)}]
      </span>
    </span>
  );
