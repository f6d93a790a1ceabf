import { HealthClient } from '@parlance/proto/grpc/health/v1/health';
import { ActivitiesServiceClient } from '@parlance/proto/parlance/analytics/v1/activities';
import { DashboardServiceClient } from '@parlance/proto/parlance/analytics/v1/dashboard';
import { AccountsServiceClient } from '@parlance/proto/parlance/identity/v1/accounts';
import { AuthServiceClient } from '@parlance/proto/parlance/identity/v1/auth';
import { BillingServiceClient } from '@parlance/proto/parlance/identity/v1/billing';
import { TeamsServiceClient } from '@parlance/proto/parlance/identity/v1/teams';
import { IngestServiceClient } from '@parlance/proto/parlance/ingest/v1/ingest';
import { IntegrationsServiceClient } from '@parlance/proto/parlance/integration/v1/integrations';
import { ProbeClient } from '@parlance/proto/parlance/platform/v1/probe';
import { ScoringServiceClient } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { CriterionSuggestionServiceClient } from '@parlance/proto/parlance/scoring/v1/suggestions';
import { TranscriptionServiceClient } from '@parlance/proto/parlance/transcription/v1/transcription';
import { createClient, type PromiseClient } from '@parlance/platform/grpc/grpc-client';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';

/** The services behind the gateway, each reached over gRPC at its configured address. */
export const SERVICE_NAMES = ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceConnection {
  name: ServiceName;
  address: string;
  health: PromiseClient<typeof HealthClient>;
  probe: PromiseClient<typeof ProbeClient>;
}

/** The identity service's APIs: the gateway's source of who is calling. */
export interface IdentityClients {
  auth: PromiseClient<typeof AuthServiceClient>;
  accounts: PromiseClient<typeof AccountsServiceClient>;
  billing: PromiseClient<typeof BillingServiceClient>;
  teams: PromiseClient<typeof TeamsServiceClient>;
}

export interface IngestClients {
  ingest: PromiseClient<typeof IngestServiceClient>;
}

export interface TranscriptionClients {
  transcripts: PromiseClient<typeof TranscriptionServiceClient>;
}

export interface ScoringClients {
  suggestions: PromiseClient<typeof CriterionSuggestionServiceClient>;
  evaluations: PromiseClient<typeof ScoringServiceClient>;
}

export interface AnalyticsClients {
  activities: PromiseClient<typeof ActivitiesServiceClient>;
  dashboard: PromiseClient<typeof DashboardServiceClient>;
}

export interface IntegrationClients {
  integrations: PromiseClient<typeof IntegrationsServiceClient>;
}

export interface ServiceClients {
  identity: IdentityClients;
  ingest: IngestClients;
  transcription: TranscriptionClients;
  scoring: ScoringClients;
  analytics: AnalyticsClients;
  integration: IntegrationClients;
  get(name: ServiceName): ServiceConnection;
  all(): ServiceConnection[];
  close(): void;
}

/** Every service's address, checked up front (throws ConfigError naming a missing variable). */
export function serviceAddresses(config: HostConfig, env: NodeJS.ProcessEnv = process.env): Record<ServiceName, string> {
  return Object.fromEntries(SERVICE_NAMES.map((name) => [name, serviceAddress(name, config, env)])) as Record<ServiceName, string>;
}

export function connectServices(addresses: Record<ServiceName, string>): ServiceClients {
  const connections = new Map<ServiceName, ServiceConnection>();
  for (const name of SERVICE_NAMES) {
    const address = addresses[name];
    connections.set(name, {
      name,
      address,
      health: createClient(HealthClient, address, { deadlineMs: 2_000, idempotent: ['check'], retries: 1 }),
      probe: createClient(ProbeClient, address, { deadlineMs: 5_000, idempotent: ['getProbe'] }),
    });
  }
  // Reads are retried when identity is briefly unavailable; nothing that writes is.
  const identity: IdentityClients = {
    auth: createClient(AuthServiceClient, addresses.identity, { idempotent: ['getSession', 'signOut'] }),
    accounts: createClient(AccountsServiceClient, addresses.identity, { idempotent: ['getCompany', 'listMembers'] }),
    billing: createClient(BillingServiceClient, addresses.identity, { idempotent: ['listPlans', 'getSubscription'] }),
    teams: createClient(TeamsServiceClient, addresses.identity, { idempotent: ['listTeams', 'getTeam', 'listTeamMembers'] }),
  };
  // Job polls are reads; an upload streams through ingest.ingest.raw (grpc/streaming.ts).
  const ingest: IngestClients = {
    ingest: createClient(IngestServiceClient, addresses.ingest, { idempotent: ['getJob'] }),
  };
  const transcription: TranscriptionClients = {
    transcripts: createClient(TranscriptionServiceClient, addresses.transcription, { idempotent: ['getTranscript'] }),
  };
  // A suggestion may wait on a language model: longer than the default deadline.
  const scoring: ScoringClients = {
    suggestions: createClient(CriterionSuggestionServiceClient, addresses.scoring, { deadlineMs: 60_000 }),
    evaluations: createClient(ScoringServiceClient, addresses.scoring, { idempotent: ['getEvaluation'] }),
  };
  const analytics: AnalyticsClients = {
    activities: createClient(ActivitiesServiceClient, addresses.analytics, { idempotent: ['listActivities'] }),
    dashboard: createClient(DashboardServiceClient, addresses.analytics, { idempotent: ['getLeaderboard', 'getMetrics', 'getPerformance', 'getRecommendations', 'getCoaching'] }),
  };
  // Connecting calls the vendor to check the credentials: longer than the default deadline.
  const integration: IntegrationClients = {
    integrations: createClient(IntegrationsServiceClient, addresses.integration, { deadlineMs: 30_000, idempotent: ['listIntegrations', 'listCloseLeadStatuses'] }),
  };
  return {
    identity,
    ingest,
    transcription,
    scoring,
    analytics,
    integration,
    get: (name) => connections.get(name)!,
    all: () => [...connections.values()],
    close: () => {
      for (const connection of connections.values()) {
        connection.health.close();
        connection.probe.close();
      }
      for (const client of [...Object.values(identity), ...Object.values(ingest), ...Object.values(transcription), ...Object.values(scoring), ...Object.values(analytics), ...Object.values(integration)]) client.close();
    },
  };
}
