import { runHost } from '@parlance/platform/host/run-host';

await runHost({
  service: 'gateway',
  defaultTarget: 'gateway',
  async register(host, config) {
    const { gatewayModule } = await import('./module.js');
    host.register(gatewayModule(config));
  },
});
