import { runService } from '@parlance/platform/host/run-service';

// The speech server as its own process (`make up`): started as soon as it is installed.
await runService('speech', async () => (await import('./module.js')).speechModule(process.env, { start: 'eager' }));
