import type { ModuleDefinition } from './module.js';

/**
 * Works out which modules a target list needs and in which order to start them: dependencies
 * first, otherwise in the order the modules were registered. Pure, so it is tested directly.
 */
export function resolveStartOrder(
  modules: ReadonlyMap<string, ModuleDefinition>,
  targets: readonly string[],
  aliases: ReadonlyMap<string, readonly string[]> = new Map(),
): string[] {
  const requested = expandTargets(modules, targets, aliases);
  const order: string[] = [];
  const visiting = new Set<string>();
  const done = new Set<string>();

  const visit = (name: string, path: string[]) => {
    if (done.has(name)) return;
    if (visiting.has(name)) throw new Error(`Module dependency cycle: ${[...path, name].join(' → ')}`);
    const module = modules.get(name);
    if (!module) {
      const from = path.at(-1);
      throw new Error(`Unknown module "${name}"${from ? ` (a dependency of "${from}")` : ''}`);
    }
    visiting.add(name);
    for (const dependency of module.dependencies) visit(dependency, [...path, name]);
    visiting.delete(name);
    done.add(name);
    order.push(name);
  };

  // Registration order breaks ties, so `all` starts plumbing, then services, then the gateway.
  const registered = [...modules.keys()];
  for (const name of registered.filter((candidate) => requested.has(candidate))) visit(name, []);
  return order;
}

function expandTargets(
  modules: ReadonlyMap<string, ModuleDefinition>,
  targets: readonly string[],
  aliases: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  if (targets.length === 0) throw new Error('No target given: use --target=all or a comma-separated list of modules');
  const requested = new Set<string>();
  for (const target of targets) {
    const alias = aliases.get(target);
    if (alias) {
      for (const name of alias) requested.add(name);
    } else if (modules.has(target)) {
      requested.add(target);
    } else {
      const known = [...aliases.keys(), ...modules.keys()].join(', ');
      throw new Error(`Unknown target "${target}". Known targets: ${known}`);
    }
  }
  return requested;
}

/** The dependency graph as text for `--list-targets`: one module a line with what it needs. */
export function describeGraph(
  modules: ReadonlyMap<string, ModuleDefinition>,
  aliases: ReadonlyMap<string, readonly string[]>,
): string {
  const lines: string[] = [];
  for (const [alias, members] of aliases) lines.push(`${alias} (target) → ${members.join(', ')}`);
  for (const module of modules.values()) {
    const needs = module.dependencies.length > 0 ? ` ← needs ${module.dependencies.join(', ')}` : '';
    lines.push(`${module.name}${needs}\n    ${module.description}`);
  }
  return lines.join('\n');
}
