import type { MetricAgreement } from '@voice-eval/contract';
import { count } from '../../format.ts';
import { Stat } from './stat.tsx';

type Paired = NonNullable<MetricAgreement['paired']>;
type Estimate = Paired['difference'];

const sign = (value: number) => (value > 0 ? '+' : value < 0 ? '−' : '');

/** A difference with its sign: accuracy in percentage points, MAE as it is. */
const signed = (value: number, measure: Paired['measure']) =>
  measure === 'accuracy'
    ? `${sign(value)}${Math.abs(value * 100).toFixed(1)}`
    : `${sign(value)}${Math.abs(value).toFixed(3)}`;

const difference = (d: NonNullable<Estimate>, measure: Paired['measure']) =>
  `${signed(d.estimate, measure)}${measure === 'accuracy' ? ' points' : ''} (95% interval ${signed(d.low, measure)} to ${signed(d.high, measure)})`;

/** `p = 0.016`, or `p < 0.001`. */
export const pValue = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toPrecision(2)}`);

/** The comparison in a sentence: each version's measure on the same calls, the difference, p. */
const sentence = (paired: Paired, version: number) => {
  const { n, measure, baseline_version: base } = paired;
  const diff = paired.difference ? `; the difference is ${difference(paired.difference, measure)}` : '';
  if (measure === 'accuracy') {
    const right = (e: Estimate) => (e === null ? '–' : String(Math.round(e.estimate * n)));
    return `Version ${version} agrees with people on ${right(paired.version)} of ${count(n, 'call')} where version ${base} agreed on ${right(paired.baseline)}${diff}, ${pValue(paired.p_value)}.`;
  }
  const off = (e: Estimate) => (e === null ? '–' : e.estimate.toFixed(3));
  return `Version ${version} is off people's value by ${off(paired.version)} on average over ${count(n, 'call')}, where version ${base} was off by ${off(paired.baseline)}${diff}, ${pValue(paired.p_value)}.`;
};

/** What the split of calls says: a likely improvement, a likely loss, or possibly chance. */
const verdict = ({ better, worse, p_value, baseline_version: base }: Paired, version: number) => {
  const split = `closer to people on ${count(better, 'call')}, further on ${worse}`;
  if (p_value < 0.05 && better > worse)
    return `Version ${version} is ${split}: a split this uneven is unlikely to be chance.`;
  if (p_value < 0.05 && worse > better)
    return `Version ${version} is ${split}: it does worse than version ${base}.`;
  return `Version ${version} is ${split}: the difference could be chance; label more calls to tell.`;
};

/**
 * A draft beside the version it was drafted from, on the calls both scored and people labelled:
 * each one's accuracy (or mean absolute error) with its 95% interval, the difference with its
 * interval, the calls where each is closer to people, and the exact McNemar p-value.
 */
export const PairedComparison = ({
  paired,
  version,
  baselineActive,
}: {
  paired: Paired;
  version: number;
  /** Whether the baseline is the version evaluations score with now. */
  baselineActive: boolean;
}) => {
  const share = paired.measure === 'accuracy';
  const base = paired.baseline_version;
  return (
    <>
      <table aria-label={`Version ${version} beside version ${base}`} className="paired">
        <thead>
          <tr>
            <th scope="col">On {count(paired.n, 'call')} both scored</th>
            <th scope="col">v{version} (draft)</th>
            <th scope="col">
              v{base}
              {baselineActive ? ' (active)' : ''}
            </th>
            <th scope="col">Difference</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{share ? 'Accuracy' : 'Mean absolute error'}</th>
            <td>
              <Stat value={paired.version} share={share} />
            </td>
            <td>
              <Stat value={paired.baseline} share={share} />
            </td>
            <td>
              {paired.difference === null ? (
                <span className="muted">–</span>
              ) : (
                <span>
                  {signed(paired.difference.estimate, paired.measure)}
                  {share ? ' pts' : ''}{' '}
                  <span className="muted">
                    [{signed(paired.difference.low, paired.measure)} to{' '}
                    {signed(paired.difference.high, paired.measure)}]
                  </span>
                </span>
              )}
            </td>
          </tr>
          <tr>
            <th scope="row">Closer to people</th>
            <td>{count(paired.better, 'call')}</td>
            <td>{count(paired.worse, 'call')}</td>
            <td>
              {pValue(paired.p_value)} <span className="muted">(exact McNemar)</span>
            </td>
          </tr>
        </tbody>
      </table>
      <p className="paired-words">{sentence(paired, version)}</p>
      <p className="muted">{verdict(paired, version)}</p>
    </>
  );
};
