import { Link } from '@tanstack/react-router';
import type { DiarisationError, DiarisationSummary } from '@voice-eval/contract';

type DiarisationErrorCode = DiarisationError['code'];

/** What each error code means to someone deciding what to do next. */
const HINTS: Record<DiarisationErrorCode, string> = {
  audio_unavailable: 'the recording could not be fetched or read',
  provider_audio_unsupported: 'the model does not accept audio: use stt_llm',
  provider_error: 'the provider refused or failed; retry, or check the provider settings',
  invalid_provider_response: 'the model answered something that is not a transcript',
  timeout: 'the provider took too long; retry',
  cancelled: 'cancelled before it finished',
  attempts_exhausted: 'failed on every attempt; see the calls for the last error',
};

/** Transcription of the import's rows: how far it has got, and the failures by cause. */
export const Diarisation = ({ summary, total }: { summary: DiarisationSummary; total: number }) => {
  const { pending, running, completed, failed } = summary;
  const queued = pending + running + completed + failed;
  if (queued === 0) return null;
  const codes = (Object.entries(summary.errors_by_code) as Array<[DiarisationErrorCode, number]>).sort(
    (a, b) => b[1] - a[1],
  );
  return (
    <>
      <h2>Transcription</h2>
      <p>
        <progress
          max={queued}
          value={completed + failed}
          aria-label={`${completed + failed} of ${queued} transcriptions done`}
        />{' '}
        {completed} done, {failed} failed, {running} running, {pending} waiting
        <span className="muted"> · {total - queued} never queued</span>
      </p>
      {codes.length > 0 && (
        <table>
          <caption className="visually-hidden">Failed transcriptions by cause</caption>
          <thead>
            <tr>
              <th scope="col">Failure</th>
              <th scope="col">Calls</th>
              <th scope="col">What it means</th>
            </tr>
          </thead>
          <tbody>
            {codes.map(([code, n]) => (
              <tr key={code}>
                <td>
                  <code>{code}</code>
                </td>
                <td className="num">
                  <Link from="/imports/$importId" search={{ transcript: 'failed' }} hash="rows">
                    {n}
                  </Link>
                </td>
                <td className="muted">{HINTS[code]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
};
