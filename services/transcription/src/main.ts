import { runService } from '@parlance/platform/host/run-service';

await runService('transcription', async () => (await import('./module.js')).transcriptionModule);
