import { runService } from '@parlance/platform/host/run-service';

await runService('integration', async (config) => (await import('./module.js')).integrationModule(config));
