/**
 * Rate limits on the calls people could abuse: guessing passwords, creating accounts, trying
 * links, sending invitations. Counted per client address (and per e-mail or user where that is
 * the target), in fixed windows, in this gateway process's memory: with several gateway replicas
 * each counts its own share, which still bounds an attacker to replicas × the limit.
 * Behind a proxy, set GATEWAY_TRUST_PROXY so the client address is the caller's, not the proxy's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../schemas/error.schema.js';

export type RateLimitName = 'login' | 'login-address' | 'signup' | 'verify-email' | 'google-signup' | 'invite' | 'accept-invite';

export interface RateLimit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS: Record<RateLimitName, RateLimit> = {
  /** Attempts on one account from one address: a person mistyping stays well under it. */
  login: { max: 10, windowMs: 15 * MINUTE },
  /** All sign-in attempts from one address, whatever the account: a spray over many accounts. */
  'login-address': { max: 50, windowMs: 15 * MINUTE },
  signup: { max: 10, windowMs: 60 * MINUTE },
  'verify-email': { max: 20, windowMs: 15 * MINUTE },
  'google-signup': { max: 30, windowMs: 15 * MINUTE },
  /** Per inviting user. */
  invite: { max: 30, windowMs: 60 * MINUTE },
  'accept-invite': { max: 30, windowMs: 15 * MINUTE },
};

const WHAT: Record<RateLimitName, string> = {
  login: 'Too many sign-in attempts',
  'login-address': 'Too many sign-in attempts from your network',
  signup: 'Too many sign-up attempts from your network',
  'verify-email': 'Too many verification attempts',
  'google-signup': 'Too many sign-in attempts',
  invite: 'You have sent too many invitations',
  'accept-invite': 'Too many invitation attempts',
};

export function rateLimitMessage(name: RateLimitName, retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `${WHAT[name]}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

interface Window {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;

  constructor(
    private readonly limits: Record<RateLimitName, RateLimit>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; returns how long to wait when it is over the limit, else 0. */
  hit(name: RateLimitName, key: string): number {
    const now = this.now();
    if (++this.calls % 1000 === 0) this.sweep(now);
    const limit = this.limits[name];
    const id = `${name}\u0000${key}`;
    let window = this.windows.get(id);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + limit.windowMs };
      this.windows.set(id, window);
    }
    window.count += 1;
    return window.count > limit.max ? window.resetAt - now : 0;
  }

  /** Drops windows that have ended, so memory stays bounded by recent traffic. */
  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.resetAt <= now) this.windows.delete(id);
  }
}

/**
 * A preHandler that counts the attempt against every named limit (a refused attempt still counts
 * towards the others), then answers 429 with Retry-After for the first one exceeded.
 */
export function limitBy(limiter: RateLimiter, rules: Array<[RateLimitName, (request: FastifyRequest) => string]>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const waits = rules.map(([name, keyOf]) => [name, limiter.hit(name, keyOf(request))] as const);
    const exceeded = waits.find(([, waitMs]) => waitMs > 0);
    if (!exceeded) return;
    const [name, waitMs] = exceeded;
    return reply
      .status(429)
      .header('retry-after', String(Math.ceil(waitMs / 1000)))
      .send(errorBody(rateLimitMessage(name, waitMs)));
  };
}
