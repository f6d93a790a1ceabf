import { fileURLToPath } from 'node:url';
import Type, { type Static } from 'typebox';
import { Port, loadConfig } from '@parlance/platform/config';

const builtWebApp = fileURLToPath(new URL('../../web/dist', import.meta.url));

export const GatewayConfigSchema = Type.Object({
  GATEWAY_HOST: Type.String({ default: '127.0.0.1', description: 'interface the HTTP server binds' }),
  GATEWAY_PORT: Port('HTTP port of the API and web app', 8080),
  GATEWAY_WEB_DIR: Type.String({ default: builtWebApp, description: 'folder of the built web app (vite build output)' }),
  GATEWAY_BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1_048_576, description: 'largest JSON body in bytes' }),
});

export type GatewayConfig = Static<typeof GatewayConfigSchema>;

export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env): GatewayConfig =>
  loadConfig(GatewayConfigSchema, env);
