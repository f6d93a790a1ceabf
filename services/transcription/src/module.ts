import { fileURLToPath } from 'node:url';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { callServerStreaming } from '@parlance/platform/grpc/streaming';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleWithBundledDependencies } from '@parlance/platform/host/module-host';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { speechModule } from '@parlance/speech/module';
import { SPEECH_MODULE, type SpeechServer } from '@parlance/speech/speech-server';
import { IngestServiceClient, IngestServiceService } from '@parlance/proto/parlance/ingest/v1/ingest';
import { TranscriptionServiceService } from '@parlance/proto/parlance/transcription/v1/transcription';
import { createSpeechEngine, loadTranscriptionConfig, type SpeechSettings } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { activityDeletedConsumer } from './events/activity-deleted.consumer.js';
import { activityReceivedConsumer } from './events/activity-received.consumer.js';
import { transcriptionService } from './grpc/transcription.server.js';
import { startTranscriptionWorker, type MediaSource } from './pipeline/transcription-worker.js';
import { createServerDiarizer } from './speech/diarization-client.js';
import { createLocalSpeech, LOCAL_ENGINE_NAME } from './speech/local-speech.js';
import { fixedSpeech, type SpeechProvider } from './speech/recording-speech.js';
import { createLimiter } from './speech/transcribe-audio.js';

/** Longest a download of one recording from ingest may take. */
const MEDIA_READ_DEADLINE_MS = 10 * 60_000;

/**
 * The transcription service. Its settings (speech engine, concurrency) are read when the process
 * registers its modules, so a bad one stops the process before anything starts. With the local
 * engine it depends on the `speech` module (the speech server it runs in this process) and
 * brings that module along, so any process hosting transcription can start it.
 */
export function transcriptionModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleWithBundledDependencies<ServiceRuntime> {
  const config = loadTranscriptionConfig(env);
  const ingestAddress = serviceAddress('ingest', hostConfig, env);
  const local = config.speech.engine === 'local';
  // Read now, so that a bad SPEECH_* setting stops the process before anything starts.
  const speech = local ? speechModule(env) : undefined;
  const definition = defineServiceModule({
    name: 'transcription',
    description: `transcripts: segments, words, timings, speakers and their roles; speech by ${describeEngine(config.speech)}`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),
    dependencies: local ? [SPEECH_MODULE] : [],

    async start(runtime, context) {
      const ingest = createClient(IngestServiceClient, ingestAddress);
      const media: MediaSource = async function* (companyId, activityId, signal) {
        const parts = callServerStreaming(ingest.raw, IngestServiceService.readMedia, { activityId, offset: 0, length: 0 }, { companyId, signal, deadlineMs: MEDIA_READ_DEADLINE_MS });
        // The first message describes the media and carries no bytes.
        for await (const { chunk } of parts) if (chunk.length > 0) yield chunk;
      };
      const logger = runtime.logger.child({ part: 'worker' });
      const worker = startTranscriptionWorker({
        db: runtime.database.db,
        media,
        transcribe: { speech: speechProvider(config.speech, () => context.dependency<SpeechServer>(SPEECH_MODULE), logger), limiter: createLimiter(config.concurrency), representativeChannel: config.representativeChannel },
        logger,
        settings: { workers: config.workers, leaseMs: config.leaseMs },
        speechWaitMs: config.speechWaitMs,
      });
      runtime.serve(TranscriptionServiceService, transcriptionService(runtime.database.db));
      await runtime.consume(activityReceivedConsumer(worker.wake));
      await runtime.consume(activityDeletedConsumer);
      return {
        quiesce: () => worker.stop(),
        stop: async () => ingest.close(),
      };
    },
  });
  return speech ? { ...definition, bundledDependencies: [speech] } : definition;
}

function speechProvider(settings: SpeechSettings, speechServer: () => SpeechServer, logger: ServiceRuntime['logger']): SpeechProvider {
  if (settings.engine === 'local') return createLocalSpeech({ server: speechServer(), logger, timeoutMs: settings.timeoutMs });
  const engine = createSpeechEngine(settings);
  // A server that speaks Parlance's extension tells the speakers of a mono recording apart; others answer 404.
  if (settings.engine === 'openai') return fixedSpeech(engine, createServerDiarizer({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs }));
  return fixedSpeech(engine);
}

function describeEngine(settings: SpeechSettings): string {
  if (settings.engine === 'local') return `${LOCAL_ENGINE_NAME} (Whisper on the speech module's server, PocketSphinx where Python cannot be set up)`;
  if (settings.engine === 'openai') return `openai:${settings.model}`;
  return 'pocketsphinx';
}
