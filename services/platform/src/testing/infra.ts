/**
 * Where integration tests find the real Postgres and Kafka. `make test` starts them with
 * `deploy/local/services up` and exports these variables; the defaults are that script's ports,
 * so a developer who ran it can call `npx vitest` directly. Nothing here skips a test: with no
 * server, the test fails on connect.
 */
export const testDatabaseUrl = (): string =>
  process.env.DATABASE_URL ?? 'postgres://parlance:parlance@127.0.0.1:55432/parlance';

export const testKafkaBrokers = (): string[] => (process.env.KAFKA_BROKERS ?? '127.0.0.1:59092').split(',');

/** A name unique to this test run, for topics, groups and schemas that must not collide. */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
