/**
 * The identity service (and, when asked, scoring, or the whole upload pipeline) and the gateway in front of it, as the tests of
 * sign-in, members, billing and teams need them: a real gRPC server, a real database and bus (PostgreSQL and Kafka, or PGlite
 * and the in-memory bus), a real SMTP server receiving the e-mails, and the gateway listening on
 * 127.0.0.1 over real HTTP. Every log line of both is kept, so a test can read what was logged.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '@parlance/gateway/app';
import { DEFAULT_RATE_LIMITS } from '@parlance/gateway/plugins/rate-limit';
import { SERVICE_NAMES, connectServices, serviceAddresses, type ServiceClients } from '@parlance/gateway/service-clients';
import { analyticsModule } from '@parlance/analytics/module';
import { integrationModule } from '@parlance/integration/module';
import { identityModule } from '@parlance/identity/module';
import { ingestModule } from '@parlance/ingest/module';
import type { EventBus } from '@parlance/platform/bus/event-bus';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { ModuleHost } from '@parlance/platform/host/module-host';
import { plumbingModules } from '@parlance/platform/host/plumbing-modules';
import { captureLogs } from '@parlance/platform/testing/captured-logs';
import type { ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { busMessageFor } from '@parlance/platform/outbox/enqueue';
import { startSmtpServer, type DeliveredMail, type TestSmtpServer } from '@parlance/platform/testing/smtp-server';
import { testDatabaseUrl, testKafkaBrokers } from '@parlance/platform/testing/infra';
import { InsightTokensConsumed } from '@parlance/proto/parlance/scoring/v1/events';
import { scoringModule } from '@parlance/scoring/module';
import { transcriptionModule } from '@parlance/transcription/module';
import { ApiClient, linkIn } from './api-client.js';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

export type Infrastructure = 'postgres-kafka' | 'pglite-memory';

/** The media volume every stack on the shared PostgreSQL and Kafka uses, as replicas of one installation share one. */
export const SHARED_MEDIA_DIR = path.join(tmpdir(), 'parlance-test-media');

export interface IdentityStackOptions {
  infrastructure?: Infrastructure;
  /** More settings for identity and the gateway (GOOGLE_CLIENT_ID, IDENTITY_PLANS_FILE, …). */
  env?: Record<string, string>;
  /**
   * What buildApp gets besides the basics (SSO settings, rate limits). Every test client comes
   * from 127.0.0.1, so the rate limits are lifted unless a test names the ones it checks.
   */
  app?: Pick<AppOptions, 'rateLimits' | 'oidc' | 'diagnosticsToken' | 'secureCookies'>;
  logLevel?: string;
  /** Also run scoring (team criteria, AI suggestions) in this process; its settings come from `env`. */
  withScoring?: boolean;
  /**
   * Also run ingest, transcription and scoring (uploads, jobs, transcripts, evaluations: a job
   * completes once its activity is scored); their settings come from `env`.
   */
  withIngest?: boolean;
  /** Also run the integration service (CLOSE_API_URL and the other vendors' addresses come from `env`). */
  withIntegration?: boolean;
}

export interface IdentityStack {
  url: string;
  /** DATA_DIR of the stack: PGlite's files and captured e-mails (<DATA_DIR>/mail) in standalone mode. */
  dataDir: string;
  /** Where ingest keeps uploaded media (shared by the stacks on PostgreSQL and Kafka). */
  mediaDir: string;
  app: FastifyInstance;
  services: ServiceClients;
  smtp: TestSmtpServer;
  /** The running service (database, bus) by name, for tests that check what a service stored. */
  runtime(name: 'identity' | 'scoring' | 'ingest' | 'transcription' | 'analytics' | 'integration'): ServiceRuntime;
  /** Everything both logged, one JSON line each. */
  logs(): string;
  /** A browser with no cookies yet. */
  browser(): ApiClient;
  /** Waits for the next e-mail to this address after the `seen` ones (default: any). */
  mailTo(email: string, seen?: number): Promise<DeliveredMail>;
  mailCount(email: string): number;
  /** Signs a new person up and follows the verification link; returns their signed-in browser. */
  signUpVerified(person?: Partial<Person>): Promise<{ browser: ApiClient; person: Person; companyId: string; userId: string }>;
  /** Puts a `scoring.insight-tokens-consumed.v1` event on the bus, as scoring will. */
  publishInsightTokens(input: { companyId: string; tokens: number; consumedAt?: Date; eventId?: string }): Promise<string>;
  stop(): Promise<void>;
}

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** An address no other test uses, also across parallel files sharing one PostgreSQL. */
export const uniqueEmail = (who: string) => `${who}.${randomUUID().slice(0, 8)}@example.com`.toLowerCase();

export async function startIdentityStack(options: IdentityStackOptions = {}): Promise<IdentityStack> {
  const infrastructure = options.infrastructure ?? 'postgres-kafka';
  const smtp = await startSmtpServer();
  const grpcPort = await freePort();
  const gatewayPort = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'parlance-identity-'));
  const webDir = await mkdtemp(path.join(tmpdir(), 'parlance-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  const url = `http://127.0.0.1:${gatewayPort}`;

  // Stacks on the shared PostgreSQL and Kafka are replicas of one installation: a transcription
  // worker of one may take an upload another received, so they share the media volume as
  // replicas do.
  const mediaDir = infrastructure === 'postgres-kafka' ? SHARED_MEDIA_DIR : path.join(dataDir, 'media');
  const infra: Record<string, string> =
    infrastructure === 'postgres-kafka'
      ? { PARLANCE_MODE: 'distributed', DATABASE_URL: testDatabaseUrl(), KAFKA_BROKERS: testKafkaBrokers().join(','), INGEST_MEDIA_DIR: mediaDir }
      : { PARLANCE_MODE: 'standalone' };
  const env: Record<string, string> = {
    ...infra,
    DATA_DIR: dataDir,
    GRPC_PORT: String(grpcPort),
    PUBLIC_URL: url,
    MAIL_TRANSPORT: 'smtp',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Parlance <no-reply@parlance.test>',
    INTEGRATION_CREDENTIAL_KEYS: `test:${Buffer.alloc(32, 1).toString('base64')}`,
    // Stacks on the shared PostgreSQL each talk to a Close stand-in of their own, so they are not
    // replicas as far as syncing and writing back go: only a stack that syncs runs their workers.
    INTEGRATION_SYNC_WORKERS: '0',
    INTEGRATION_WRITEBACK_WORKERS: '0',
    // Every service address names this process; only the services asked for run in it.
    ...Object.fromEntries(SERVICE_NAMES.map((name) => [`${name.toUpperCase()}_GRPC_ADDR`, `127.0.0.1:${grpcPort}`])),
    // Stacks share one database: a re-score at start would take up other tests' activities.
    SCORING_RESCORE: 'off',
    ...options.env,
  };

  const logs = captureLogs('identity-test', options.logLevel ?? 'info');
  const logger = logs.logger;

  const config = loadHostConfig(env);
  const host = new ModuleHost(logger);
  const modules = [
    identityModule(config, env),
    ...(options.withScoring || options.withIngest ? [scoringModule(env, config)] : []),
    ...(options.withIngest ? [ingestModule(config, env), transcriptionModule(config, env), analyticsModule(env)] : []),
    ...(options.withIntegration ? [integrationModule(config, env)] : []),
  ];
  for (const module of [...plumbingModules(config), ...modules]) host.register(module);
  await host.start(modules.map((module) => module.name));
  const services = connectServices(serviceAddresses(config, env));
  const unlimited = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, { max: 1_000_000, windowMs: 60_000 }]));
  const { app, close } = await buildApp({
    logger,
    services,
    webDir,
    version: '0.0.0-test',
    mode: config.PARLANCE_MODE,
    ...options.app,
    rateLimits: { ...unlimited, ...options.app?.rateLimits },
  });
  await app.listen({ host: '127.0.0.1', port: gatewayPort });

  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));

  const stack: IdentityStack = {
    url,
    dataDir,
    mediaDir,
    app,
    services,
    smtp,
    runtime(name) {
      const runtime = host.exportsOf<ServiceRuntime>(name);
      if (!runtime) throw new Error(`${name} is not running in this stack`);
      return runtime;
    },
    logs: logs.text,
    browser: () => new ApiClient(url),
    mailCount: (email) => mailsTo(email).length,
    mailTo: (email, seen = 0) => waitFor(`an e-mail to ${email}`, async () => mailsTo(email)[seen]),

    async signUpVerified(given = {}) {
      const person: Person = {
        firstName: 'Ada',
        lastName: 'Lovelace',
        password: 'analytical engine 1843',
        ...given,
        email: given.email ?? uniqueEmail(given.firstName ?? 'ada'),
      };
      const browser = stack.browser();
      const seen = stack.mailCount(person.email);
      const signup = await browser.post('/api/auth/signup', person);
      if (signup.status !== 200) throw new Error(`sign-up of ${person.email} answered ${signup.status}: ${JSON.stringify(signup.body)}`);
      const mail = await stack.mailTo(person.email, seen);
      const token = linkIn(mail.text, '/auth/verify-email').searchParams.get('token');
      const verified = await browser.post<{ user: { id: string }; company: { id: string } }>('/api/auth/verify-email', { token });
      if (verified.status !== 200) throw new Error(`verification of ${person.email} answered ${verified.status}: ${JSON.stringify(verified.body)}`);
      return { browser, person, companyId: verified.body.company.id, userId: verified.body.user.id };
    },

    async publishInsightTokens(input) {
      const bus = host.exportsOf<EventBus>('bus')!;
      const message = outboxMessageFor({
        type: 'scoring.insight-tokens-consumed.v1',
        companyId: input.companyId,
        producer: 'scoring',
        ...(input.eventId ? { id: input.eventId } : {}),
        payload: InsightTokensConsumed.encode({
          activityId: randomUUID(),
          teamId: randomUUID(),
          tokens: input.tokens,
          model: 'offline-evidence',
          consumedAt: input.consumedAt ?? new Date(),
        }).finish(),
      });
      await bus.publish([busMessageFor(message)]);
      return message.eventId;
    },

    async stop() {
      await close(1_000);
      services.close();
      await host.stop();
      await smtp.close();
      await Promise.all([dataDir, webDir].map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
  return stack;
}
