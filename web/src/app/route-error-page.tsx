import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Unknown error';
}

// Shown when rendering a page throws, in place of the whole layout.
export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <main className="page page--narrow">
      <h1>Something went wrong</h1>
      <p role="alert">This page could not be shown: {describe(error)}</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </main>
  );
}
