import { createMemoryBus } from '../src/bus/memory-bus.js';
import { busContract } from './bus.contract.js';

busContract('memory', async () => createMemoryBus());
