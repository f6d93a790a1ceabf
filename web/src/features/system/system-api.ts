import { api } from '../../lib/api/api-slice';

export type HealthStatus = 'ok' | 'degraded';
export type DeploymentMode = 'standalone' | 'distributed';

export type ModuleHealth = {
  name: string;
  state: string;
};

export type HealthResponse = {
  status: HealthStatus;
  version: string;
  mode: DeploymentMode;
  modules: ModuleHealth[];
};

function isHealthResponse(body: unknown): body is HealthResponse {
  return typeof body === 'object' && body !== null && 'status' in body && 'modules' in body;
}

export const systemApi = api.injectEndpoints({
  endpoints: (build) => ({
    getHealth: build.query<HealthResponse, void>({
      query: () => ({
        url: '/api/health',
        // A degraded system may answer 503 (as readiness probes expect) with the same report;
        // the report is still what the status page should show.
        validateStatus: (response, body) =>
          response.ok || (response.status === 503 && isHealthResponse(body)),
      }),
    }),
  }),
});

export const { useGetHealthQuery } = systemApi;
