import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { thirdPartySources, type WebSettings } from '../web-settings.js';

/**
 * Browser hardening on every response: a content security policy that lets the page load only
 * its own scripts and talk only to its own API, no framing, no MIME sniffing, no referrer leaks
 * across origins. Inline styles stay allowed because React style attributes and chart SVGs use
 * them; scripts never are. Third parties the deployment configured (Google sign-in, a demo
 * scheduling page, an analytics script) are allowed for exactly their origins.
 */
export async function registerSecurityHeaders(app: FastifyInstance, web: WebSettings): Promise<void> {
  const extra = thirdPartySources(web);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...extra.script],
        styleSrc: ["'self'", "'unsafe-inline'", ...extra.style],
        frameSrc: ["'self'", ...extra.frame],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...extra.connect],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    // HSTS only means something behind HTTPS, which a reverse proxy or ingress terminates.
    strictTransportSecurity: false,
    // Google Identity Services' popups (the sign-in button, Google Workspace's code client) hand
    // their answer back to the page that opened them, which a same-origin opener policy cuts off.
    crossOriginOpenerPolicy: { policy: web.googleClientId ? 'same-origin-allow-popups' : 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
