import { runService } from '@parlance/platform/host/run-service';

await runService('analytics', async () => (await import('./module.js')).analyticsModule());
