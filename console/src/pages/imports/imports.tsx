import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { CALL_IMPORT_SOURCE_FORMAT_FILTERS, CALL_IMPORT_STATUSES } from '@voice-eval/contract';
import { SelectFilter } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useSession } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';

const route = getRouteApi('/app/imports');
const PAGE_SIZE = 25;

/** Call imports, newest first: uploaded recordings and transcripts, and the calls of suite runs. */
export const ImportsPage = () => {
  const session = useSession();
  const search = route.useSearch();
  const navigate = useNavigate();
  const imports = useQuery({
    queryKey: ['imports', search.status, search.format, search.page ?? 1],
    queryFn: () =>
      session.client.callImports.list({
        status: search.status,
        source_format: search.format,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((i) => i.status === 'pending' || i.status === 'processing') ? 2000 : false,
  });
  const filter = (next: Partial<typeof search>) =>
    void navigate({ to: '/imports', search: { ...search, ...next, page: undefined } });

  return (
    <section>
      <div className="page-head">
        <h1>Imports</h1>
        <SelectFilter
          label="Status"
          value={search.status}
          choices={CALL_IMPORT_STATUSES}
          onChange={(status) => filter({ status })}
        />
        <SelectFilter
          label="Source"
          value={search.format}
          choices={CALL_IMPORT_SOURCE_FORMAT_FILTERS.map((f) => ({ value: f, label: f.replace('_', '-') }))}
          onChange={(format) => filter({ format })}
        />
      </div>
      {imports.isPending ? (
        <Loading what="imports" />
      ) : imports.isError ? (
        <ProblemView error={imports.error} what="imports" />
      ) : imports.data.total === 0 ? (
        search.status || search.format ? (
          <p className="empty">No import matches.</p>
        ) : (
          <div className="empty">
            <h2>No imports yet</h2>
            <p>Upload recorded calls (WAV files) or a CSV of transcripts with the SDK or the API:</p>
            <pre>
              <code>{`await client.callImports.create({ schema_id: schema.id, files: [recording] });`}</code>
            </pre>
            <pre>
              <code>
                curl -H "Authorization: Bearer $KEY" -F schema_id=… -F files=@call.wav{' '}
                {session.apiBase.replace(/\/+$/, '')}/api/v1/call-imports
              </code>
            </pre>
            <p>Every suite run also lands here, one import per run.</p>
          </div>
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Import</th>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col">Rows</th>
                <th scope="col">Latest evaluation</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {imports.data.items.map((imp) => (
                <tr key={imp.id}>
                  <td>
                    <Link to="/imports/$importId" params={{ importId: imp.id }}>
                      {imp.dataset ?? imp.original_filename ?? imp.id.slice(0, 8)}
                    </Link>
                  </td>
                  <td>{imp.source_format ?? '–'}</td>
                  <td>
                    <span className={`status status-${imp.status}`}>{imp.status}</span>
                    {imp.error_message && <span className="error"> {imp.error_message}</span>}
                  </td>
                  <td className="num">{imp.total_rows}</td>
                  <td>{imp.latest_evaluation_status ?? <span className="muted">none</span>}</td>
                  <td>{dateTime(imp.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={imports.data.page}
            pageSize={PAGE_SIZE}
            total={imports.data.total}
            to={(page) => ({ to: '/imports', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};
