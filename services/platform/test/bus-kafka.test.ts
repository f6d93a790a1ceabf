import { createKafkaBus } from '../src/bus/kafka-bus.js';
import { testKafkaBrokers, uniqueName } from '../src/testing/infra.js';
import { busContract } from './bus.contract.js';

// Against the real broker of `deploy/local/services up`; with no broker every test fails on connect.
// Short timeouts keep group joins, leaves and stops quick.
busContract('kafka', async () =>
  createKafkaBus({
    brokers: testKafkaBrokers(),
    clientId: uniqueName('bus-contract'),
    connectionTimeoutMs: 3_000,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    consumer: { sessionTimeout: 10_000, rebalanceTimeout: 10_000, heartbeatInterval: 1_000, maxWaitTimeInMs: 250 },
  }),
);
