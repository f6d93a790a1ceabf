import { gatewayApi } from './api/gateway-api.generated';

/** The deployment's third parties (GET /api/web-config), read once and kept for the whole visit. */
export const useWebConfig = () => gatewayApi.endpoints.getWebConfig.useQuery(undefined, { refetchOnMountOrArgChange: false }).data;
