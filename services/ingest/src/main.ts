import { runService } from '@parlance/platform/host/run-service';

await runService('ingest', async () => (await import('./module.js')).ingestModule);
