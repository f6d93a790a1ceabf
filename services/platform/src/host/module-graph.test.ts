import { describe, expect, it } from 'vitest';
import type { ModuleDefinition } from './module.js';
import { describeGraph, resolveStartOrder } from './module-graph.js';

const module = (name: string, dependencies: string[] = []): ModuleDefinition => ({
  name,
  dependencies,
  description: `the ${name} module`,
  init: async () => ({ stop: async () => undefined }),
});

const graph = new Map(
  [
    module('bus'),
    module('grpc-server'),
    module('identity', ['bus', 'grpc-server']),
    module('scoring', ['bus', 'grpc-server']),
    module('analytics', ['bus', 'grpc-server']),
    module('gateway'),
  ].map((definition) => [definition.name, definition]),
);
const aliases = new Map([['all', ['identity', 'scoring', 'analytics', 'gateway']]]);

describe('resolveStartOrder', () => {
  it('puts dependencies before dependants and keeps registration order otherwise', () => {
    expect(resolveStartOrder(graph, ['all'], aliases)).toEqual(['bus', 'grpc-server', 'identity', 'scoring', 'analytics', 'gateway']);
  });

  it('starts only what a comma-separated target list needs', () => {
    expect(resolveStartOrder(graph, ['analytics', 'scoring'], aliases)).toEqual(['bus', 'grpc-server', 'scoring', 'analytics']);
  });

  it('names an unknown target and lists the known ones', () => {
    expect(() => resolveStartOrder(graph, ['scorring'], aliases)).toThrow(
      'Unknown target "scorring". Known targets: all, bus, grpc-server, identity, scoring, analytics, gateway',
    );
  });

  it('reports a dependency cycle with its path', () => {
    const cyclic = new Map([module('a', ['b']), module('b', ['a'])].map((definition) => [definition.name, definition]));
    expect(() => resolveStartOrder(cyclic, ['a'])).toThrow('Module dependency cycle: a → b → a');
  });

  it('reports a missing dependency and who needs it', () => {
    const broken = new Map([module('a', ['ghost'])].map((definition) => [definition.name, definition]));
    expect(() => resolveStartOrder(broken, ['a'])).toThrow('Unknown module "ghost" (a dependency of "a")');
  });
});

describe('describeGraph', () => {
  it('lists targets and each module with what it needs', () => {
    const text = describeGraph(graph, aliases);
    expect(text).toContain('all (target) → identity, scoring, analytics, gateway');
    expect(text).toContain('scoring ← needs bus, grpc-server');
  });
});
