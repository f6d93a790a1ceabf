import type { HostConfig } from './host-config.js';
import type { ModuleDefinition } from './module.js';
import { runHost } from './run-host.js';

/**
 * The whole `main.ts` of a service: a host whose default target is that one service, with the
 * shared plumbing it depends on. The module is imported only after telemetry has started; it gets
 * the process's settings, so a module that reads its own can refuse a bad one before anything starts.
 */
export function runService(name: string, loadModule: (config: HostConfig) => Promise<ModuleDefinition>): Promise<void> {
  return runHost({
    service: name,
    defaultTarget: name,
    async register(host, config) {
      const { plumbingModules } = await import('./plumbing-modules.js');
      for (const module of [...plumbingModules(config), await loadModule(config)]) host.register(module);
    },
  });
}
