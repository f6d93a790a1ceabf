import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../schemas/error.schema.js';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built React app. Any GET outside `/api` that is not a file gets `index.html`, so the
 * browser router handles deep links such as `/teams/new`. Unknown `/api` paths stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const built = existsSync(join(webDir, 'index.html'));
  if (built) {
    // Files come compressed from the build (web/scripts/compress-dist.ts) when the browser accepts it.
    await app.register(fastifyStatic, { root: webDir, wildcard: false, index: ['index.html'], preCompressed: true });
  } else {
    app.log.warn({ webDir }, 'web app is not built; pages answer 503 until `npm run build -w @parlance/web`');
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/') || request.method !== 'GET') {
      return reply.status(404).send(errorBody(`No such endpoint: ${request.method} ${path}`));
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The web app is not built yet. Run `make run`, or `npm run build -w @parlance/web`.');
    }
    return reply.type('text/html').sendFile('index.html');
  });
}
