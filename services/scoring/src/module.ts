import { fileURLToPath } from 'node:url';
import { DomainError } from '@parlance/platform/errors';
import { createClient } from '@parlance/platform/grpc/grpc-client';
import { serviceAddress, type HostConfig } from '@parlance/platform/host/host-config';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, INBOX_RETENTION_MS, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { ScoringServiceService } from '@parlance/proto/parlance/scoring/v1/evaluation';
import { CriterionSuggestionServiceService } from '@parlance/proto/parlance/scoring/v1/suggestions';
import { TranscriptionServiceClient } from '@parlance/proto/parlance/transcription/v1/transcription';
import { loadScoringConfig } from './config.js';
import { purgeDeletions } from './db/evaluations.repository.js';
import { inbox, outbox, probes } from './db/schema.js';
import { createEvaluationEngine } from './engines/create-evaluation-engine.js';
import { activityDeletedConsumer } from './events/activity-deleted.consumer.js';
import { teamChangedConsumer } from './events/team-changed.consumer.js';
import { transcriptReadyConsumer } from './events/transcript-ready.consumer.js';
import { scoringService } from './grpc/scoring.server.js';
import { suggestionsService } from './grpc/suggestions.server.js';
import { lexicon } from './language/lexicon.js';
import { createOfflineEngine, SUPERSEDED_OFFLINE_ENGINES } from './offline/offline-engine.js';
import { startRescore } from './pipeline/rescore.js';
import { startScoringWorker } from './pipeline/scoring-worker.js';
import { SentenceEncoderModelMissingError, sentenceEncoderIfAvailable, type SentenceEncoder } from './semantic/sentence-encoder.js';
import { createCriterionSuggester } from './suggestions/criterion-suggester.js';

const HOUR_MS = 3_600_000;
/** A stored transcript, for a re-score: up to ten hours of talk to read and send. */
const TRANSCRIPT_DEADLINE_MS = 30_000;
/** Deletions are remembered as long as the inbox remembers event ids (a late transcript is still recognised). */
const DELETION_RETENTION_MS = INBOX_RETENTION_MS;

/**
 * The scoring service. Its settings (the optional language model) are read when the process
 * registers its modules, so a bad one stops the process before anything starts. `hostConfig` tells
 * it where transcription is, for re-scoring stored activities with the current engine
 * (pipeline/rescore.ts); without it nothing is scored again.
 */
export function scoringModule(env: NodeJS.ProcessEnv = process.env, hostConfig?: HostConfig): ModuleDefinition<ServiceRuntime> {
  const config = loadScoringConfig(env);
  const suggestionModel = config.suggestions.model;
  const evaluationModel = config.evaluation.model;
  const evaluatedBy = evaluationModel ? `${evaluationModel.model}, falling back to the offline evaluator` : 'the offline evaluator';
  return defineServiceModule({
    name: 'scoring',
    description: `evaluations of activities against team criteria, with evidence, by ${evaluatedBy}; criterion suggestions ${suggestionModel ? `from ${suggestionModel.model}` : 'offline'}`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      const db = runtime.database.db;
      // Both engines match with WordNet: parse it now rather than in the middle of the first evaluation.
      lexicon();
      const logger = runtime.logger.child({ part: 'evaluation' });
      const { sentenceModel } = config.evaluation;
      const encoder =
        sentenceModel &&
        sentenceEncoderIfAvailable({ modelDirectory: sentenceModel.directory }, (error) =>
          error instanceof SentenceEncoderModelMissingError
            ? logger.warn({ missing: error.missingFile }, 'sentence-embedding model not installed; the offline evaluator reads words alone (scripts/ensure-embedding-model.sh installs it)')
            : logger.error({ err: error }, 'sentence-embedding model could not be loaded; the offline evaluator reads words alone'),
        );
      const engine = createEvaluationEngine(config.evaluation, logger, createOfflineEngine({ encoder }));
      const worker = startScoringWorker({ db, engine, logger: runtime.logger.child({ part: 'worker' }), settings: config.worker });
      const rescore = config.rescore && !evaluationModel && encoder && hostConfig ? rescoreWhenModelLoads(encoder, hostConfig) : undefined;
      runtime.serve(CriterionSuggestionServiceService, suggestionsService(createCriterionSuggester(config.suggestions, runtime.logger.child({ part: 'suggestions' }))));
      runtime.serve(ScoringServiceService, scoringService(db));
      await runtime.consume(teamChangedConsumer);
      await runtime.consume(transcriptReadyConsumer(worker.wake));
      await runtime.consume(activityDeletedConsumer);
      const housekeeping = setInterval(() => {
        purgeDeletions(db, new Date(Date.now() - DELETION_RETENTION_MS)).catch((error: unknown) => runtime.logger.warn({ err: error }, 'could not purge old deletions; will try again'));
      }, HOUR_MS);
      housekeeping.unref();
      return {
        quiesce: async () => {
          await rescore?.stop();
          await worker.stop();
        },
        stop: async () => clearInterval(housekeeping),
      };

      /** Once the model is loaded, the activities judged by words alone are scored again. */
      function rescoreWhenModelLoads(loadEncoder: () => Promise<SentenceEncoder | undefined>, host: HostConfig): { stop(): Promise<void> } {
        const transcription = createClient(TranscriptionServiceClient, serviceAddress('transcription', host, env), { idempotent: ['getTranscript'] });
        let stopped = false;
        const started = loadEncoder().then((model) => {
          if (!model || stopped) return undefined;
          return startRescore({
            db,
            superseded: SUPERSEDED_OFFLINE_ENGINES,
            transcriptOf: async (companyId, activityId, signal) => {
              try {
                return (await transcription.getTranscript({ activityId }, { companyId, signal, deadlineMs: TRANSCRIPT_DEADLINE_MS })).transcript;
              } catch (error) {
                if (error instanceof DomainError && error.kind === 'not-found') return undefined;
                throw error;
              }
            },
            wake: worker.wake,
            logger: runtime.logger.child({ part: 'rescore' }),
          });
        }, () => undefined);
        return {
          async stop() {
            stopped = true;
            await (await started)?.stop();
            transcription.close();
          },
        };
      }
    },
  });
}
