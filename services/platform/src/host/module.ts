import type { Logger } from '../logger.js';

/**
 * A module is a named unit of the product (a service, the gateway, or shared plumbing such as
 * the event bus) with explicit dependencies. The host starts a target's modules in dependency
 * order and stops them in reverse, as Grafana Mimir and Loki do.
 */
export interface ModuleDefinition<Exports = unknown> {
  name: string;
  /** Names of modules that must be running first; they are started even if not targeted. */
  dependencies: readonly string[];
  /** One line for `--list-targets`. */
  description: string;
  init(context: ModuleContext): Promise<RunningModule<Exports>>;
}

export interface RunningModule<Exports = unknown> {
  /** What dependants receive from `context.dependency(name)`. */
  exports?: Exports;
  /**
   * Stop taking new work (close listeners, leave consumer groups) and let in-flight work
   * finish. Called for every module, in reverse order, before any module's `stop`.
   */
  quiesce?(): Promise<void>;
  /** Release everything (connections, timers). */
  stop(): Promise<void>;
  /** Whether the module can serve now; `/readyz` is ready when every module is. */
  ready?(): Promise<boolean>;
}

export interface ModuleContext {
  logger: Logger;
  /** The running dependency's exports; throws if `name` is not among the declared dependencies. */
  dependency<T>(name: string): T;
  /** Resolves when the host begins shutting down; long loops watch it. */
  readonly shuttingDown: AbortSignal;
}
