import { fileURLToPath } from 'node:url';
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { defineServiceModule, type ServiceRuntime } from '@parlance/platform/service/service-runtime';
import { CriterionSuggestionServiceService } from '@parlance/proto/parlance/scoring/v1/suggestions';
import { loadScoringConfig } from './config.js';
import { inbox, outbox, probes } from './db/schema.js';
import { teamChangedConsumer } from './events/team-changed.consumer.js';
import { suggestionsService } from './grpc/suggestions.server.js';
import { createCriterionSuggester } from './suggestions/criterion-suggester.js';

/**
 * The scoring service. Its settings (the optional language model) are read when the process
 * registers its modules, so a bad one stops the process before anything starts.
 */
export function scoringModule(env: NodeJS.ProcessEnv = process.env): ModuleDefinition<ServiceRuntime> {
  const config = loadScoringConfig(env);
  const model = config.suggestions.model;
  return defineServiceModule({
    name: 'scoring',
    description: `evaluations of activities against team criteria, with evidence; criterion suggestions ${model ? `from ${model.model}` : 'offline'}`,
    tables: { outbox, inbox, probes },
    migrationsFolder: fileURLToPath(new URL('./db/migrations', import.meta.url)),

    async start(runtime) {
      runtime.serve(CriterionSuggestionServiceService, suggestionsService(createCriterionSuggester(config.suggestions, runtime.logger.child({ part: 'suggestions' }))));
      await runtime.consume(teamChangedConsumer);
    },
  });
}
