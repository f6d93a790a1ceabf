import { Link, useLocation } from 'react-router';

const AREAS: Record<string, string> = {
  '/integrations': 'Integrations',
};

/**
 * The signed-in areas of spec part 2 that have not arrived yet (integrations, with the integration
 * service). Until then their routes exist, are guarded like every other signed-in page, and say
 * plainly that the area is not available yet.
 */
export function PendingAreaPage() {
  const { pathname } = useLocation();
  const area = AREAS[pathname] ?? 'This area';
  return (
    <section className="page page--narrow">
      <h1>{area}</h1>
      <p>{area} is not available in this version of Parlance yet. Calls, dashboards and CRM connections arrive with the next releases.</p>
      <p>
        Meanwhile you can set up your <Link to="/teams">teams and evaluation criteria</Link> and your{' '}
        <Link to="/settings">company settings</Link>.
      </p>
    </section>
  );
}
