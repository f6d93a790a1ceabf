import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Browser hardening on every response: a content security policy that lets the page load only
 * its own scripts and talk only to its own API, no framing, no MIME sniffing, no referrer leaks
 * across origins. Inline styles stay allowed because React style attributes and chart SVGs use
 * them; scripts never are.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    // HSTS only means something behind HTTPS, which a reverse proxy or ingress terminates.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
}
