import { fileURLToPath } from 'node:url';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { callServerStreaming } from '@parlance/platform/grpc/streaming';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { IngestServiceClient, IngestServiceService } from '@parlance/proto/parlance/ingest/v1/ingest';
import { TranscriptionServiceService } from '@parlance/proto/parlance/transcription/v1/transcription';
import { createSpeechEngine, loadTranscriptionConfig } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { activityDeletedConsumer } from './events/activity-deleted.consumer.js';
import { activityReceivedConsumer } from './events/activity-received.consumer.js';
import { transcriptionService } from './grpc/transcription.server.js';
import { startTranscriptionWorker, type MediaSource } from './pipeline/transcription-worker.js';
import { createLimiter } from './speech/transcribe-audio.js';

/** Longest a download of one recording from ingest may take. */
const MEDIA_READ_DEADLINE_MS = 10 * 60_000;

/**
 * The transcription service. Its settings (speech engine, concurrency) are read when the process
 * registers its modules, so a bad one stops the process before anything starts.
 */
export function transcriptionModule(hostConfig: HostConfig, env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadTranscriptionConfig(env);
  const ingestAddress = serviceAddress('ingest', hostConfig, env);
  const engine = createSpeechEngine(config.speech);
  return defineServiceModule({
    name: 'transcription',
    description: `transcripts: segments, words, timings, speakers and their roles; speech by ${engine.name}`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const ingest = createClient(IngestServiceClient, ingestAddress);
      const media: MediaSource = async function* (companyId, activityId, signal) {
        const parts = callServerStreaming(ingest.raw, IngestServiceService.readMedia, { activityId, offset: 0, length: 0 }, { companyId, signal, deadlineMs: MEDIA_READ_DEADLINE_MS });
        // The first message describes the media and carries no bytes.
        for await (const { chunk } of parts) if (chunk.length > 0) yield chunk;
      };
      const worker = startTranscriptionWorker({
        db: runtime.database.db,
        media,
        transcribe: { engine, limiter: createLimiter(config.concurrency), representativeChannel: config.representativeChannel },
        logger: runtime.logger.child({ part: 'worker' }),
        settings: { workers: config.workers, leaseMs: config.leaseMs },
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
}
