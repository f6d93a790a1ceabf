import { runService } from '@parlance/platform/host/run-service';

await runService('identity', async () => (await import('./module.js')).identityModule);
