import type { Logger } from '../logger.js';
import type { EventBus } from './event-bus.js';
import { createKafkaBus, type KafkaBusOptions } from './kafka-bus.js';
import { createMemoryBus, type MemoryBusOptions } from './memory-bus.js';

/**
 * Which bus a process uses is configuration, never code: standalone mode runs in memory,
 * distributed mode on Kafka. Business code only ever sees `EventBus`.
 */
export type BusConfig =
  | ({ adapter: 'memory' } & Omit<MemoryBusOptions, 'logger'>)
  | ({ adapter: 'kafka'; brokers: string[]; clientId: string } & Omit<KafkaBusOptions, 'brokers' | 'clientId' | 'logger'>);

export function createBus(config: BusConfig, logger?: Logger): EventBus {
  switch (config.adapter) {
    case 'memory': {
      const { adapter: _adapter, ...options } = config;
      return createMemoryBus({ ...options, logger });
    }
    case 'kafka': {
      const { adapter: _adapter, ...options } = config;
      return createKafkaBus({ ...options, logger });
    }
  }
}
