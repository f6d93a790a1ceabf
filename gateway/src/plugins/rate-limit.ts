/**
 * Rate limits on the calls people could abuse: guessing passwords, creating accounts, trying
 * links, sending invitations, asking a paid language model for suggestions. Counted per client address (and per e-mail or user where that is
 * the target), in fixed windows, in this gateway process's memory: with several gateway replicas
 * each counts its own share, which still bounds an attacker to replicas × the limit.
 * Behind a proxy, set GATEWAY_TRUST_PROXY so the client address is the caller's, not the proxy's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../schemas/error.schema.js';

export type RateLimitName = 'login' | 'login-address' | 'signup' | 'signup-email' | 'verify-email' | 'google-signup' | 'invite' | 'accept-invite' | 'ai-suggestion' | 'share-summary';

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
  /** Sign-ups for one address, whoever sends them: each mails a link, and a mailbox is not a target. */
  'signup-email': { max: 5, windowMs: 60 * MINUTE },
  'verify-email': { max: 20, windowMs: 15 * MINUTE },
  'google-signup': { max: 30, windowMs: 15 * MINUTE },
  /** Per inviting user. */
  invite: { max: 30, windowMs: 60 * MINUTE },
  'accept-invite': { max: 30, windowMs: 15 * MINUTE },
  /** Per user: each may cost a language-model call. A team editor suggesting for every criterion stays under it. */
  'ai-suggestion': { max: 60, windowMs: 15 * MINUTE },
  /** Per user: each sends an e-mail to an address of their choosing. */
  'share-summary': { max: 30, windowMs: 60 * MINUTE },
};

const WHAT: Record<RateLimitName, string> = {
  login: 'Too many sign-in attempts',
  'login-address': 'Too many sign-in attempts from your network',
  signup: 'Too many sign-up attempts from your network',
  'signup-email': 'Too many sign-up attempts for this e-mail address',
  'verify-email': 'Too many verification attempts',
  'google-signup': 'Too many sign-in attempts',
  invite: 'You have sent too many invitations',
  'accept-invite': 'Too many invitation attempts',
  'ai-suggestion': 'You have asked for too many AI suggestions',
  'share-summary': 'You have shared too many summaries',
};

export function rateLimitMessage(name: RateLimitName, retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / MINUTE));
  return `${WHAT[name]}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Windows kept at most; past it the oldest go first. Bounds memory whatever keys callers choose. */
const MAX_WINDOWS = 100_000;

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
      this.windows.delete(id); // re-inserted last: the Map's order is the order of window starts
      this.windows.set(id, window);
      if (this.windows.size > MAX_WINDOWS) this.evict(now);
    }
    window.count += 1;
    return window.count > limit.max ? window.resetAt - now : 0;
  }

  /** Drops windows that have ended, so memory stays bounded by recent traffic. */
  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.resetAt <= now) this.windows.delete(id);
  }

  /** Over the cap: ended windows go, then the oldest, until a tenth of the room is free again. */
  private evict(now: number): void {
    this.sweep(now);
    for (const id of this.windows.keys()) {
      if (this.windows.size <= MAX_WINDOWS * 0.9) break;
      this.windows.delete(id);
    }
  }

  /** How many windows are held (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }
}

/**
 * A preHandler that counts the attempt against the named limits in order and answers 429 with
 * Retry-After at the first one exceeded, without counting it against the rest. List the broadest
 * limit first (per client address): then a refused attempt still counts against the address, and
 * a flood of refused attempts cannot fill memory with windows for keys the client chose.
 */
export function limitBy(limiter: RateLimiter, rules: Array<[RateLimitName, (request: FastifyRequest) => string]>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const [name, keyOf] of rules) {
      const waitMs = limiter.hit(name, keyOf(request));
      if (waitMs > 0) {
        return reply
          .status(429)
          .header('retry-after', String(Math.ceil(waitMs / 1000)))
          .send(errorBody(rateLimitMessage(name, waitMs)));
      }
    }
  };
}
