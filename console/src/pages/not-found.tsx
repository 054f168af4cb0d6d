import { Link } from '@tanstack/react-router';

export const NotFoundPage = () => (
  <main className="problem" id="main">
    <h1>Page not found</h1>
    <p>There is no console page at this address.</p>
    <Link to="/runs">Go to the runs</Link>
  </main>
);
