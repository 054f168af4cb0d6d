import { Link, type LinkProps } from '@tanstack/react-router';

/** Previous and next links of a paged list; the page lives in the URL. */
export const Pager = ({
  page,
  pageSize,
  total,
  to,
}: {
  page: number;
  pageSize: number;
  total: number;
  to: (page: number) => LinkProps;
}) => {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? <Link {...to(page - 1)}>← Previous</Link> : <span />}
      <span>
        Page {page} of {pages} · {total} in all
      </span>
      {page < pages ? <Link {...to(page + 1)}>Next →</Link> : <span />}
    </nav>
  );
};
