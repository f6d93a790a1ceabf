import { runService } from '@parlance/platform/host/run-service';

await runService('scoring', async () => (await import('./module.js')).scoringModule());
