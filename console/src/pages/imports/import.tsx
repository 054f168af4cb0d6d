import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type CallImportDetail, DIARISED_TRANSCRIPT_STATUSES } from '@voice-eval/contract';
import { useState } from 'react';
import { SearchBox, SelectFilter } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { BulkActions, type Selection } from './bulk-actions.tsx';
import { Diarisation } from './diarisation.tsx';

const route = getRouteApi('/app/imports/$importId');
const PAGE_SIZE = 50;

/**
 * One import: its transcription progress and failures by code, its evaluations, and its rows,
 * any of which (or every row matching the filters, across pages) can be transcribed, cancelled
 * or scored at once.
 */
export const ImportPage = () => {
  const client = useClient();
  const navigate = useNavigate();
  const { importId } = route.useParams();
  const search = route.useSearch();
  const page = search.page ?? 1;
  const filters = { q: search.q, diarised_status: search.transcript };
  const detail = useQuery({
    queryKey: ['import', importId, search.q, search.transcript, page],
    queryFn: () =>
      client.callImports.get(importId, {
        ...filters,
        row_limit: PAGE_SIZE,
        row_offset: (page - 1) * PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const d = query.state.data?.diarisation;
      return d && d.pending + d.running > 0 ? 2000 : false;
    },
  });
  const [selection, setSelection] = useState<Selection>({ ids: new Set(), allMatching: false });
  const filter = (next: Partial<typeof search>) => {
    setSelection({ ids: new Set(), allMatching: false });
    void navigate({
      to: '/imports/$importId',
      params: { importId },
      search: { ...search, ...next, page: undefined },
    });
  };

  if (detail.isPending) return <Loading what="import" />;
  if (detail.isError) return <ProblemView error={detail.error} what="import" />;
  const d = detail.data;
  return (
    <section>
      <div className="page-head">
        <h1>{d.dataset ?? d.original_filename ?? 'Import'}</h1>
        <span className={`status status-${d.status}`}>{d.status}</span>
        <Link to="/evaluations" search={{ import: d.id }}>
          Its evaluations
        </Link>
      </div>
      <dl className="facts">
        <div>
          <dt>Source</dt>
          <dd>{d.source_format ?? '–'}</dd>
        </div>
        <div>
          <dt>Rows</dt>
          <dd>{d.total_rows}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            {dateTime(d.created_at)}
            {d.created_by_email && <span className="muted"> by {d.created_by_email}</span>}
          </dd>
        </div>
        {d.source_row_skips.length > 0 && (
          <div>
            <dt>Source rows skipped</dt>
            <dd>{d.source_row_skips.length}</dd>
          </div>
        )}
      </dl>
      {d.error_message && <p className="error">{d.error_message}</p>}
      <Diarisation summary={d.diarisation} total={d.total_rows} />

      <div className="page-head">
        <h2 id="rows">Calls</h2>
        <SearchBox label="Conversation" value={search.q} onSearch={(q) => filter({ q })} />
        <SelectFilter
          label="Transcript"
          value={search.transcript}
          choices={DIARISED_TRANSCRIPT_STATUSES}
          onChange={(transcript) => filter({ transcript })}
        />
      </div>
      <BulkActions importDetail={d} filters={filters} selection={selection} onSelection={setSelection} />
      <Rows detail={d} selection={selection} onSelection={setSelection} />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={d.rows_total}
        to={(p) => ({ to: '/imports/$importId', params: { importId }, search: { ...search, page: p } })}
      />
    </section>
  );
};

const Rows = ({
  detail,
  selection,
  onSelection,
}: {
  detail: CallImportDetail;
  selection: Selection;
  onSelection: (next: Selection) => void;
}) => {
  if (detail.rows_total === 0) return <p className="empty">No call matches.</p>;
  const toggle = (id: string) => {
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    onSelection({ ids, allMatching: false });
  };
  const pageIds = detail.rows.map((r) => r.id);
  const pageSelected = pageIds.every((id) => selection.ids.has(id));
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">
            <input
              type="checkbox"
              aria-label="Select the calls of this page"
              checked={pageSelected}
              onChange={() => {
                const ids = new Set(selection.ids);
                for (const id of pageIds) {
                  if (pageSelected) ids.delete(id);
                  else ids.add(id);
                }
                onSelection({ ids, allMatching: false });
              }}
            />
          </th>
          <th scope="col">Conversation</th>
          <th scope="col">Recording</th>
          <th scope="col">Transcript</th>
        </tr>
      </thead>
      <tbody>
        {detail.rows.map((row) => (
          <tr key={row.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`Select ${row.conversation_id}`}
                checked={selection.ids.has(row.id)}
                onChange={() => toggle(row.id)}
              />
            </td>
            <td>
              <Link to="/calls/$rowId" params={{ rowId: row.id }} search={{ import: detail.id }}>
                {row.conversation_id}
              </Link>
            </td>
            <td>{row.has_recording ? 'yes' : <span className="muted">no</span>}</td>
            <td>
              {row.diarised_transcript_status ? (
                <span className={`status status-${row.diarised_transcript_status}`}>
                  {row.diarised_transcript_status}
                </span>
              ) : row.source_transcript ? (
                'from the source'
              ) : (
                <span className="muted">none</span>
              )}
              {row.diarised_transcript_error && (
                <span className="error" title={row.diarised_transcript_error.message}>
                  {' '}
                  {row.diarised_transcript_error.code}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};
