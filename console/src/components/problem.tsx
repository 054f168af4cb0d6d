import { Link } from '@tanstack/react-router';
import { ApiError } from '@voice-eval/sdk';

/** An error as the API's problem detail in words, with the request id to quote. */
export const ProblemView = ({ error, what }: { error: unknown; what: string }) => {
  if (error instanceof ApiError) {
    const title =
      error.status === 404
        ? `No such ${what}`
        : error.status === 403
          ? `You may not see this ${what}`
          : (error.problem?.title ?? `Could not load the ${what}`);
    return (
      <div className="problem" role="alert">
        <h2>{title}</h2>
        <p>{error.detail ?? error.message}</p>
        <p className="muted">
          HTTP {error.status}
          {error.code ? ` · ${error.code}` : ''}
          {error.requestId ? ` · request ${error.requestId}` : ''}
        </p>
        <Link to="/runs">Back to runs</Link>
      </div>
    );
  }
  return (
    <div className="problem" role="alert">
      <h2>Could not load the {what}</h2>
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
};

export const Loading = ({ what }: { what: string }) => (
  <p className="loading" aria-busy="true">
    Loading {what}…
  </p>
);
