import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="page page--narrow">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
