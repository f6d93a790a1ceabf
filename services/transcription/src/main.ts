import { runService } from '@parlance/platform/host/run-service';

await runService('transcription', async (config) => (await import('./module.js')).transcriptionModule(config));
