/**
 * The speech module: the Whisper speech server (services/speech/server) installed, started and
 * supervised by this process (see supervisor.ts). Transcription depends on it in local mode and
 * reads the server's state and URL from its exports; `main.ts` runs it as a process of its own.
 *
 * It never holds up /readyz: the first install takes minutes, and meanwhile the product works and
 * recordings wait for the server (transcription defers them). Its settings are read when the
 * process registers it, so a bad one stops the process before anything starts.
 */
import type { ModuleDefinition } from '@parlance/platform/host/module';
import { loadSpeechConfig } from './config.js';
import { SPEECH_MODULE, type SpeechServer } from './speech-server.js';
import { startSpeechSupervisor } from './supervisor.js';

export interface SpeechModuleOptions {
  /**
   * 'on-demand' (the default): the server starts with the first recording, so a host that never
   * sees one never loads Whisper; 'eager': as soon as it is installed (a speech process of its own).
   */
  start?: 'eager' | 'on-demand';
}

export function speechModule(env: NodeJS.ProcessEnv = process.env, options: SpeechModuleOptions = {}): ModuleDefinition<SpeechServer> {
  const config = loadSpeechConfig(env);
  const start = options.start ?? 'on-demand';
  return {
    name: SPEECH_MODULE,
    dependencies: [],
    description: `the Whisper speech server on ${config.host}:${config.port === 0 ? 'a free port' : config.port}, from ${config.venvDir} (installed when missing; started ${start === 'eager' ? 'at once' : 'with the first recording'})`,
    async init({ logger }) {
      const supervisor = startSpeechSupervisor({ config, logger, start });
      return { exports: supervisor, stop: () => supervisor.stop() };
    },
  };
}
