import { ConfigError } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { startTelemetry } from '../telemetry.js';
import { startAdminServer } from './admin-server.js';
import { tuneHeap } from './heap-tuning.js';
import { loadHostConfig, type HostConfig } from './host-config.js';
import { ModuleHost } from './module-host.js';

export interface HostProgram {
  /** Names the process in logs and traces, e.g. `parlance` or `scoring`. */
  service: string;
  /** Target used when `--target` is not given. */
  defaultTarget: string;
  /** Registers modules; imported lazily so telemetry is up before any module code loads. */
  register(host: ModuleHost, config: HostConfig, logger: Logger): Promise<void>;
  /** Runs once every targeted module is up, e.g. to tell a person where to point the browser. */
  started?(host: ModuleHost): void;
}

interface Arguments {
  targets: string[] | undefined;
  listTargets: boolean;
}

export function parseArguments(argv: readonly string[]): Arguments {
  let targets: string[] | undefined;
  let listTargets = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === '--list-targets') listTargets = true;
    else if (argument.startsWith('--target=')) targets = argument.slice('--target='.length).split(',').filter(Boolean);
    else if (argument === '--target') targets = (argv[++index] ?? '').split(',').filter(Boolean);
    else throw new Error(`Unknown argument "${argument}". Use --target=<names> or --list-targets`);
  }
  return { targets, listTargets };
}

/**
 * The whole life of a Parlance process: validate config, start telemetry, start the targeted
 * modules and the admin server, and on SIGTERM or SIGINT drain and exit 0.
 */
export async function runHost(program: HostProgram, argv = process.argv.slice(2)): Promise<void> {
  tuneHeap();
  let config: HostConfig;
  let args: Arguments;
  try {
    args = parseArguments(argv);
    config = loadHostConfig();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(error instanceof ConfigError ? 78 : 64);
  }

  const telemetry = startTelemetry({
    serviceName: program.service,
    exporter: config.OTEL_TRACES_EXPORTER,
    ...(config.OTEL_EXPORTER_OTLP_ENDPOINT ? { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
  });
  const logger = createLogger({ service: program.service, level: config.LOG_LEVEL });
  const host = new ModuleHost(logger);
  try {
    await program.register(host, config, logger);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }

  if (args.listTargets) {
    process.stdout.write(`${host.describe()}\n`);
    await telemetry.shutdown();
    return;
  }

  const targets = args.targets ?? [program.defaultTarget];
  let admin: Awaited<ReturnType<typeof startAdminServer>> | undefined;
  let exiting = false;
  const shutdown = async (reason: string, code: number) => {
    if (exiting) return;
    exiting = true;
    logger.info({ reason }, 'shutting down');
    try {
      await host.stop();
      await admin?.close();
      await telemetry.shutdown();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      code = code || 1;
    }
    logger.flush();
    process.exit(code);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM', 0));
  process.once('SIGINT', () => void shutdown('SIGINT', 0));

  try {
    admin = await startAdminServer(host, { host: config.ADMIN_HOST, port: config.ADMIN_PORT, service: program.service });
    await host.start(targets);
    logger.info({ targets, adminPort: admin.port, mode: config.PARLANCE_MODE }, 'ready');
    program.started?.(host);
  } catch (error) {
    logger.fatal({ err: error }, 'start failed');
    await shutdown('start failed', 1);
  }
}
