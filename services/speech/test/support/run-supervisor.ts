/**
 * A process of its own that runs a speech supervisor, for the tests that kill it: argv[2] is a JSON
 * object with the stand-in's paths (or none, for the real server and install.sh) and the start
 * mode. It prints each status change as a JSON line on stdout.
 */
import { createLogger } from '@parlance/platform/logger';
import { loadSpeechConfig } from '../../src/config.js';
import { startSpeechSupervisor } from '../../src/supervisor.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { venvDir?: string; serverScript?: string; installScript?: string; start?: 'eager' | 'on-demand' };
const supervisor = startSpeechSupervisor({
  config: { ...loadSpeechConfig({}), ...(options.venvDir ? { venvDir: options.venvDir } : {}), threads: 1 },
  logger: createLogger({ service: 'speech-test', level: 'silent', pretty: false }),
  start: options.start ?? 'eager',
  ...(options.serverScript ? { serverScript: options.serverScript } : {}),
  ...(options.installScript ? { installScript: options.installScript } : {}),
});
supervisor.onChange((status) => process.stdout.write(`${JSON.stringify(status)}\n`));
process.stdout.write(`${JSON.stringify(supervisor.status())}\n`);
process.once('SIGTERM', () => void supervisor.stop().then(() => process.exit(0)));
