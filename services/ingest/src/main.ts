import { runService } from '@parlance/platform/host/run-service';

await runService('ingest', async (config) => (await import('./module.js')).ingestModule(config));
