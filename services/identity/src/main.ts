import { runService } from '@parlance/platform/host/run-service';

await runService('identity', async (config) => (await import('./module.js')).identityModule(config));
