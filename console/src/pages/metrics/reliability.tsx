import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Metric, MetricAgreement, MetricVersion } from '@voice-eval/contract';
import { useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { DraftVersions } from './draft-version.tsx';
import { type Estimate, Stat } from './stat.tsx';

const statistics = (a: MetricAgreement): Array<[string, Estimate, boolean]> => [
  ['Accuracy', a.categorical?.accuracy ?? null, true],
  ["Cohen's κ", a.categorical?.kappa ?? null, false],
  ['Precision of flags', a.flagged?.precision ?? null, true],
  ['Recall of flags', a.flagged?.recall ?? null, true],
  ['F1 of flags', a.flagged?.f1 ?? null, false],
  ...(a.ordinal
    ? ([
        ['Mean absolute error', a.ordinal.mae, false],
        ["Spearman's ρ", a.ordinal.spearman, false],
        ['Within one step', a.ordinal.within_one, true],
      ] as Array<[string, Estimate, boolean]>)
    : []),
];

const show = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

/**
 * How far the judge agrees with people on a version of the metric (the current one unless picked),
 * with 95% intervals, and the calls where they disagree; then the metric's version history.
 */
export const Reliability = ({ metric }: { metric: Metric }) => {
  const client = useClient();
  // the metric's current version until one is picked (so it follows a promotion)
  const [picked, setVersion] = useState<number | null>(null);
  const version = picked ?? metric.version;
  const versions = useQuery({
    queryKey: ['metric', metric.id, 'versions'],
    queryFn: () => client.metrics.versions(metric.id, { page_size: 100 }),
  });
  // drafts too, once the history is in
  const options: Array<Pick<MetricVersion, 'version' | 'status'>> =
    versions.data?.items ??
    Array.from({ length: metric.version }, (_, i) => ({ version: metric.version - i, status: 'active' }));
  const agreement = useQuery({
    queryKey: ['metric', metric.id, 'agreement', version],
    queryFn: () => client.metrics.agreement(metric.id, { version }),
  });
  return (
    <>
      <h2>Judge agreement</h2>
      <label>
        Version{' '}
        <select value={version} onChange={(event) => setVersion(Number(event.target.value))}>
          {options.map((v) => (
            <option key={v.version} value={v.version}>
              v{v.version}
              {v.version === metric.version ? ' (current)' : v.status === 'draft' ? ' (draft)' : ''}
            </option>
          ))}
        </select>
      </label>
      {agreement.isPending ? (
        <Loading what="agreement" />
      ) : agreement.isError ? (
        <ProblemView error={agreement.error} what="agreement" />
      ) : agreement.data.n === 0 ? (
        <p className="empty">
          No call scored with v{version} has a label yet. Label calls with a review queue or{' '}
          <code>client.metrics.setLabel</code>; the judge is then measured against them here.
        </p>
      ) : (
        <>
          <p className="muted">
            {agreement.data.n} labelled calls; 95% intervals; people's value is their majority
            {agreement.data.ordinal ? ' (median for scores)' : ''}, ties left out.
          </p>
          <table aria-label="Agreement with people">
            <tbody>
              {statistics(agreement.data).map(([name, value, share]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    <Stat value={value} share={share} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Where the judge and people disagree</h3>
          {agreement.data.disagreements.length === 0 ? (
            <p className="empty">Nowhere: the judge gave every labelled call the people's value.</p>
          ) : (
            <ul>
              {agreement.data.disagreements.map((d) => (
                <li key={d.call_import_row_id}>
                  <Link
                    to="/calls/$rowId"
                    params={{ rowId: d.call_import_row_id }}
                    search={{ import: d.call_import_id, metric: metric.id }}
                  >
                    {d.conversation_id}
                  </Link>
                  : people {show(d.people)}, judge {d.judge === null ? '–' : show(d.judge)}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {versions.data && <DraftVersions metric={metric} versions={versions.data.items} />}
      <h2>Versions</h2>
      {versions.isPending ? (
        <Loading what="versions" />
      ) : versions.isError ? (
        <ProblemView error={versions.error} what="versions" />
      ) : (
        <table aria-label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col">Description</th>
              <th scope="col">Made</th>
            </tr>
          </thead>
          <tbody>
            {versions.data.items.map((v) => (
              <tr key={v.version}>
                <td>v{v.version}</td>
                <td>
                  {v.status}
                  {v.based_on !== null && <span className="muted"> · drafted from v{v.based_on}</span>}
                </td>
                <td className="text">{v.definition.description || <span className="muted">none</span>}</td>
                <td>
                  {dateTime(v.created_at)} <span className="muted">by {v.created_by}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
};
