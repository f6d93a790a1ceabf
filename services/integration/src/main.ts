import { runService } from '@parlance/platform/host/run-service';

await runService('integration', async () => (await import('./module.js')).integrationModule());
