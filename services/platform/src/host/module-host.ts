import type { Logger } from '../logger.js';
import { describeGraph, resolveStartOrder } from './module-graph.js';
import type { ModuleContext, ModuleDefinition, RunningModule } from './module.js';

export type ModuleState = 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface ModuleStatus {
  name: string;
  state: ModuleState;
}

/**
 * A module that brings along the definitions of modules it depends on which a process may not
 * register itself. Transcription in local mode brings the speech server's module this way, so
 * every process that hosts transcription (the standalone host, its own process, a test's host)
 * can start it. A module the process registers under the same name takes precedence.
 */
export type ModuleWithBundledDependencies<Exports = unknown> = ModuleDefinition<Exports> & {
  bundledDependencies?: readonly ModuleDefinition[];
};

/**
 * Starts the modules a target needs in dependency order and stops them in reverse. If a module
 * fails to start, the ones already running are stopped again before the error is rethrown, so a
 * failed start leaves nothing behind.
 */
export class ModuleHost {
  private readonly definitions = new Map<string, ModuleDefinition>();
  /** Brought along by registered modules; used for the names nothing registered. */
  private readonly bundled = new Map<string, ModuleDefinition>();
  private readonly aliases = new Map<string, readonly string[]>();
  private readonly running: Array<{ name: string; module: RunningModule }> = [];
  private readonly states = new Map<string, ModuleState>();
  private readonly shutdown = new AbortController();
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  register(definition: ModuleWithBundledDependencies): this {
    if (this.definitions.has(definition.name)) throw new Error(`Module "${definition.name}" is registered twice`);
    this.definitions.set(definition.name, definition);
    this.bundle(definition.bundledDependencies ?? []);
    return this;
  }

  /** A named group of modules, such as `all`. */
  alias(name: string, members: readonly string[]): this {
    this.aliases.set(name, members);
    return this;
  }

  startOrder(targets: readonly string[]): string[] {
    return resolveStartOrder(this.known(), targets, this.aliases);
  }

  describe(): string {
    return describeGraph(this.known(), this.aliases);
  }

  async start(targets: readonly string[]): Promise<void> {
    const known = this.known();
    const order = resolveStartOrder(known, targets, this.aliases);
    this.logger.info({ modules: order }, 'starting modules');
    for (const name of order) {
      const definition = known.get(name)!;
      const logger = this.logger.child({ module: name });
      this.states.set(name, 'starting');
      const started = Date.now();
      try {
        const module = await definition.init(this.contextFor(definition, logger));
        this.running.push({ name, module });
        this.states.set(name, 'running');
        logger.info({ ms: Date.now() - started }, 'module started');
      } catch (error) {
        this.states.set(name, 'failed');
        logger.error({ err: error }, 'module failed to start');
        await this.stop();
        throw new Error(`Module "${name}" failed to start: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  /** Quiesces every module in reverse order, then stops each in reverse order. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  /** The exports of a running module, e.g. for the process to print where the gateway listens. */
  exportsOf<T>(name: string): T | undefined {
    return this.running.find((entry) => entry.name === name)?.module.exports as T | undefined;
  }

  status(): ModuleStatus[] {
    return [...this.states].map(([name, state]) => ({ name, state }));
  }

  async ready(): Promise<boolean> {
    if (this.shutdown.signal.aborted || this.running.length === 0) return false;
    if (this.running.length !== this.states.size) return false;
    const checks = await Promise.all(
      this.running.map(async ({ module }) => (module.ready ? module.ready().catch(() => false) : true)),
    );
    return checks.every(Boolean);
  }

  private bundle(definitions: readonly ModuleWithBundledDependencies[]): void {
    for (const definition of definitions) {
      if (this.bundled.has(definition.name)) continue;
      this.bundled.set(definition.name, definition);
      this.bundle(definition.bundledDependencies ?? []);
    }
  }

  /** The registered modules, then the bundled ones nothing registered. */
  private known(): Map<string, ModuleDefinition> {
    const known = new Map(this.definitions);
    for (const [name, definition] of this.bundled) if (!known.has(name)) known.set(name, definition);
    return known;
  }

  private contextFor(definition: ModuleDefinition, logger: Logger): ModuleContext {
    return {
      logger,
      shuttingDown: this.shutdown.signal,
      dependency: <T>(name: string): T => {
        if (!definition.dependencies.includes(name)) {
          throw new Error(`Module "${definition.name}" asked for "${name}", which it does not declare as a dependency`);
        }
        const found = this.running.find((entry) => entry.name === name);
        if (!found) throw new Error(`Dependency "${name}" of "${definition.name}" is not running`);
        return found.module.exports as T;
      },
    };
  }

  private async stopAll(): Promise<void> {
    this.shutdown.abort();
    const reversed = [...this.running].reverse();
    for (const { name } of reversed) this.states.set(name, 'stopping');
    for (const { name, module } of reversed) {
      if (!module.quiesce) continue;
      const started = Date.now();
      await module.quiesce().catch((error: unknown) => this.logger.error({ err: error, module: name }, 'quiesce failed'));
      this.logger.info({ module: name, ms: Date.now() - started }, 'module quiesced');
    }
    let firstError: unknown;
    for (const { name, module } of reversed) {
      try {
        await module.stop();
        this.states.set(name, 'stopped');
        this.logger.info({ module: name }, 'module stopped');
      } catch (error) {
        firstError ??= error;
        this.states.set(name, 'failed');
        this.logger.error({ err: error, module: name }, 'module failed to stop');
      }
    }
    this.running.length = 0;
    if (firstError) throw firstError;
  }
}
