/**
 * The Parlance host: every module in one process by default (`--target=all`), or any subset
 * (`--target=scoring,analytics`); `--list-targets` prints the module graph. Standalone mode is
 * this process with PGlite and the in-memory bus; distributed mode runs one target per process.
 * The speech server (`speech`) is not part of `all`: it starts when transcription uses the local
 * engine (the default), or when targeted on its own.
 */
import { runHost } from '@parlance/platform/host/run-host';

const SERVICES = ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration'] as const;

/** The demo sign-in to print once started, when identity creates it (IDENTITY_DEMO_ACCOUNT). */
let demoLogin: string | undefined;

await runHost({
  service: 'parlance',
  defaultTarget: 'all',
  async register(host, config) {
    const { plumbingModules } = await import('@parlance/platform/host/plumbing-modules');
    const { gatewayModule } = await import('@parlance/gateway/module');
    const { speechModule } = await import('@parlance/speech/module');
    const services = await Promise.all([
      import('@parlance/identity/module').then((m) => m.identityModule(config)),
      import('@parlance/ingest/module').then((m) => m.ingestModule(config)),
      import('@parlance/transcription/module').then((m) => m.transcriptionModule(config)),
      import('@parlance/scoring/module').then((m) => m.scoringModule(process.env, config)),
      import('@parlance/analytics/module').then((m) => m.analyticsModule()),
      import('@parlance/integration/module').then((m) => m.integrationModule(config)),
    ]);
    const { loadDemoConfig } = await import('@parlance/demo/config');
    const demoData = loadDemoConfig(config).enabled ? [await import('@parlance/demo/module').then((m) => m.demoModule(config))] : [];
    for (const module of [...plumbingModules(config), speechModule(), ...services, ...demoData, gatewayModule(config)]) host.register(module);
    const { loadIdentityConfig } = await import('@parlance/identity/config');
    if (loadIdentityConfig(config).demoAccount) {
      const { DEMO_ACCOUNT } = await import('@parlance/identity/demo-account');
      demoLogin = `Demo login: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`;
    }
    host.alias('all', [...SERVICES, ...demoData.map((module) => module.name), 'gateway']);
  },
  started(host) {
    const gateway = host.exportsOf<{ url: string }>('gateway');
    if (gateway) process.stdout.write(`\nParlance is running at ${gateway.url}\n${demoLogin && host.exportsOf('identity') ? `${demoLogin}\n` : ''}\n`);
  },
});
