import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import type { ModuleDefinition } from './module.js';
import { ModuleHost } from './module-host.js';

const silent = createLogger({ service: 'test', level: 'silent', pretty: false });

function recordingModule(name: string, dependencies: string[], journal: string[], fail = false): ModuleDefinition<string> {
  return {
    name,
    dependencies,
    description: `${name} for tests`,
    async init(context) {
      for (const dependency of dependencies) journal.push(`${name} got ${context.dependency<string>(dependency)}`);
      if (fail) throw new Error(`${name} cannot start`);
      journal.push(`start ${name}`);
      return {
        exports: `${name}-exports`,
        quiesce: async () => void journal.push(`quiesce ${name}`),
        stop: async () => void journal.push(`stop ${name}`),
      };
    },
  };
}

function hostWith(journal: string[], failing?: string) {
  const host = new ModuleHost(silent);
  host.register(recordingModule('bus', [], journal, failing === 'bus'));
  host.register(recordingModule('grpc-server', [], journal, failing === 'grpc-server'));
  host.register(recordingModule('scoring', ['bus', 'grpc-server'], journal, failing === 'scoring'));
  host.register(recordingModule('analytics', ['bus', 'grpc-server'], journal, failing === 'analytics'));
  host.register(recordingModule('gateway', [], journal, failing === 'gateway'));
  host.alias('all', ['scoring', 'analytics', 'gateway']);
  return host;
}

describe('ModuleHost', () => {
  it('starts dependencies first and hands their exports to dependants', async () => {
    const journal: string[] = [];
    const host = hostWith(journal);
    await host.start(['scoring']);
    expect(journal).toEqual(['start bus', 'start grpc-server', 'scoring got bus-exports', 'scoring got grpc-server-exports', 'start scoring']);
    expect(await host.ready()).toBe(true);
  });

  it('quiesces every module in reverse order before stopping each in reverse order', async () => {
    const journal: string[] = [];
    const host = hostWith(journal);
    await host.start(['all']);
    journal.length = 0;
    await host.stop();
    expect(journal).toEqual([
      'quiesce gateway', 'quiesce analytics', 'quiesce scoring', 'quiesce grpc-server', 'quiesce bus',
      'stop gateway', 'stop analytics', 'stop scoring', 'stop grpc-server', 'stop bus',
    ]);
    expect(await host.ready()).toBe(false);
    expect(host.status().every((module) => module.state === 'stopped')).toBe(true);
  });

  it('stops what already started when a module fails to start', async () => {
    const journal: string[] = [];
    const host = hostWith(journal, 'analytics');
    await expect(host.start(['all'])).rejects.toThrow('Module "analytics" failed to start: analytics cannot start');
    expect(journal.filter((line) => line.startsWith('stop'))).toEqual(['stop scoring', 'stop grpc-server', 'stop bus']);
    expect(host.status().find((module) => module.name === 'analytics')?.state).toBe('failed');
  });

  it('refuses a dependency the module did not declare', async () => {
    const host = new ModuleHost(silent);
    host.register({
      name: 'sneaky',
      dependencies: [],
      description: 'asks for what it did not declare',
      init: async (context) => {
        context.dependency('bus');
        return { stop: async () => undefined };
      },
    });
    await expect(host.start(['sneaky'])).rejects.toThrow('asked for "bus", which it does not declare');
  });

  it('signals shutdown to running modules and stops only once', async () => {
    const host = new ModuleHost(silent);
    let signal: AbortSignal | undefined;
    let stops = 0;
    host.register({
      name: 'worker',
      dependencies: [],
      description: 'watches the shutdown signal',
      init: async (context) => {
        signal = context.shuttingDown;
        return { stop: async () => void stops++ };
      },
    });
    await host.start(['worker']);
    expect(signal?.aborted).toBe(false);
    await Promise.all([host.stop(), host.stop()]);
    expect(signal?.aborted).toBe(true);
    expect(stops).toBe(1);
  });

  it('starts a dependency a module brought along when the process registered none of that name', async () => {
    const journal: string[] = [];
    const host = hostWith(journal);
    host.register({ ...recordingModule('transcription', ['bus', 'speech'], journal), bundledDependencies: [recordingModule('speech', [], journal)] });
    expect(host.describe()).toContain('speech\n    speech for tests');
    await host.start(['transcription']);
    expect(journal).toEqual(['start bus', 'start speech', 'transcription got bus-exports', 'transcription got speech-exports', 'start transcription']);
    // Nothing asked for it: it does not start.
    const other: string[] = [];
    const idle = hostWith(other);
    idle.register({ ...recordingModule('transcription', ['bus'], other), bundledDependencies: [recordingModule('speech', [], other)] });
    await idle.start(['all']);
    expect(other).not.toContain('start speech');
  });

  it('prefers the module the process registered to one a dependant brought along', async () => {
    const journal: string[] = [];
    const host = new ModuleHost(silent);
    host.register({ ...recordingModule('transcription', ['speech'], journal), bundledDependencies: [recordingModule('speech', [], journal, true)] });
    host.register(recordingModule('speech', [], journal));
    await host.start(['transcription']);
    expect(journal).toEqual(['start speech', 'transcription got speech-exports', 'start transcription']);
  });
});
