import { Counter, Histogram, register, type Metric } from 'prom-client';

/**
 * The process's Prometheus metrics, on prom-client's default registry, which the admin server
 * serves at /metrics. Each metric is created once per process however many modules ask for it.
 */
function once<T extends Metric<string>>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = () =>
  once(
    'parlance_http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'parlance_http_request_duration_seconds',
        help: 'Time to answer an HTTP request at the gateway, by route and status',
        labelNames: ['method', 'route', 'status'],
        buckets: DURATION_BUCKETS,
      }),
  );

export const grpcServerDuration = () =>
  once(
    'parlance_grpc_server_duration_seconds',
    () =>
      new Histogram({
        name: 'parlance_grpc_server_duration_seconds',
        help: 'Time to handle a unary gRPC call, by method and status code',
        labelNames: ['method', 'code'],
        buckets: DURATION_BUCKETS,
      }),
  );

export const eventsConsumed = () =>
  once(
    'parlance_events_consumed_total',
    () =>
      new Counter({
        name: 'parlance_events_consumed_total',
        help: 'Events a consumer group finished with, by topic, group and outcome (applied, duplicate, failed attempt)',
        labelNames: ['topic', 'group', 'outcome'],
      }),
  );
