import type { ModuleDefinition } from './module.js';
import { runHost } from './run-host.js';

/**
 * The whole `main.ts` of a service: a host whose default target is that one service, with the
 * shared plumbing it depends on. The module is imported only after telemetry has started.
 */
export function runService(name: string, loadModule: () => Promise<ModuleDefinition>): Promise<void> {
  return runHost({
    service: name,
    defaultTarget: name,
    async register(host, config) {
      const { plumbingModules } = await import('./plumbing-modules.js');
      for (const module of [...plumbingModules(config), await loadModule()]) host.register(module);
    },
  });
}
