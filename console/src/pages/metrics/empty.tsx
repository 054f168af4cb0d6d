/** What the metrics list says when it has nothing to show, and how to make a first metric. */
export const EmptyMetrics = ({ q, drafts, canWrite }: { q?: string; drafts: boolean; canWrite: boolean }) =>
  q ? (
    <p className="empty">
      No {drafts ? 'draft' : 'active metric'}'s name contains “{q}”.
    </p>
  ) : drafts ? (
    <div className="empty">
      <h2>No drafts</h2>
      <p>
        A draft is a metric evaluations do not use yet.{' '}
        {canWrite ? 'Paste a rubric to make a draft of each of its labels, then promote them.' : ''}
      </p>
    </div>
  ) : (
    <div className="empty">
      <h2>No metrics yet</h2>
      <p>
        A metric is what the judge scores each call on.{' '}
        {canWrite ? 'Paste a rubric (above) to make drafts, or ' : 'Someone who may write can '}
        create one with the SDK:
      </p>
      <pre>
        <code>{`await client.metrics.create({ name: 'Confirms the booking', metric_type: 'boolean' });`}</code>
      </pre>
      <p>A problem the judge discovers on the failure clusters page can become a metric too.</p>
    </div>
  );
