/**
 * Writes the gateway's OpenAPI document to gateway/openapi.json (the committed contract), or with
 * --check fails if the committed file differs from what the routes describe.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createLogger } from '@parlance/platform/logger';
import { loadHostConfig } from '@parlance/platform/host/host-config';
import { buildApp } from '../src/app.js';
import { connectServices, serviceAddresses } from '../src/service-clients.js';

const target = new URL('../openapi.json', import.meta.url);
const config = loadHostConfig({});
const services = connectServices(serviceAddresses(config, {}));
const { app } = await buildApp({
  logger: createLogger({ service: 'openapi', level: 'silent', pretty: false }),
  services,
  webDir: '/nonexistent',
  version: (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version,
  mode: 'standalone',
});
await app.ready();
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
services.close();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // Missing counts as stale.
  }
  if (committed !== document) {
    console.error('gateway/openapi.json is stale: run `node --import tsx gateway/scripts/openapi.ts` and commit it');
    process.exit(1);
  }
} else {
  writeFileSync(target, document);
  console.log(`wrote ${target.pathname}`);
}
