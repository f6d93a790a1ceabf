import { describeApiError } from '../../lib/api/error-message';
import { useGetHealthQuery, type HealthResponse } from './system-api';

const STATUS_LABELS: Record<HealthResponse['status'], string> = {
  ok: 'All systems operational',
  degraded: 'Degraded',
};

const MODE_LABELS: Record<HealthResponse['mode'], string> = {
  standalone: 'Standalone (one process)',
  distributed: 'Distributed (one process per service)',
};

function HealthReport({ health }: { health: HealthResponse }) {
  return (
    <>
      <p className={`status-badge status-badge--${health.status}`}>{STATUS_LABELS[health.status]}</p>
      <dl className="facts">
        <dt>Version</dt>
        <dd>{health.version}</dd>
        <dt>Mode</dt>
        <dd>{MODE_LABELS[health.mode]}</dd>
      </dl>
      <h2>Modules</h2>
      {health.modules.length === 0 ? (
        <p>No modules reported.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {health.modules.map((module) => (
              <tr key={module.name}>
                <td>{module.name}</td>
                <td>
                  <span className={`module-state module-state--${module.state}`}>{module.state}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function StatusPage() {
  const { data, error, isLoading, isFetching, isError, refetch } = useGetHealthQuery();

  return (
    <section className="page">
      <div className="page__header">
        <h1>System status</h1>
        <button type="button" className="button" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? 'Checking…' : 'Check again'}
        </button>
      </div>
      {isLoading ? (
        <p role="status">Checking the Parlance server…</p>
      ) : isError ? (
        <p role="alert" className="alert">
          {describeApiError(error)}
        </p>
      ) : data ? (
        <HealthReport health={data} />
      ) : null}
    </section>
  );
}
