import { describe, expect, it } from 'vitest';
import { createKafkaBus } from '../src/bus/kafka-bus.js';
import { createLogger } from '../src/logger.js';
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

describe('kafka topic creation', () => {
  it('creates fresh topics from several processes at once and serves them straight away', async () => {
    // The broker's transient "does not host this topic-partition" answers are expected here.
    const logger = createLogger({ service: 'topics-test', level: 'silent', pretty: false });
    const buses = Array.from({ length: 4 }, () => createKafkaBus({ brokers: testKafkaBrokers(), clientId: uniqueName('topics'), logger }));
    try {
      const topicSets = buses.map(() => Array.from({ length: 5 }, () => uniqueName('fresh')));
      // Every bus asks for its own new topics and for one shared new topic at the same moment.
      const shared = uniqueName('shared');
      await Promise.all(buses.map((bus, index) => bus.ensureTopics([...topicSets[index]!, shared])));

      const received: string[] = [];
      const subscription = await buses[0]!.subscribe({
        group: uniqueName('topics-group'),
        topics: [shared],
        handler: async (message) => void received.push(Buffer.from(message.value).toString()),
      });
      await buses[1]!.publish([{ topic: shared, key: 'k', value: Buffer.from('hello') }]);
      const deadline = Date.now() + 15_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await subscription.stop();
      expect(received).toEqual(['hello']);
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
    }
  }, 60_000);
});
