import { runService } from '@parlance/platform/host/run-service';

await runService('scoring', async (config) => (await import('./module.js')).scoringModule(process.env, config));
