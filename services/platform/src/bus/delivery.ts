/**
 * How every bus adapter retries a failing handler and dead-letters a message, in one place so the
 * Kafka and in-memory adapters cannot drift apart. Pure functions, no I/O.
 */
import {
  FAILURE_ATTEMPTS_HEADER,
  FAILURE_REASON_HEADER,
  ORIGINAL_TOPIC_HEADER,
  type SubscribeOptions,
} from './event-bus.js';

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_INITIAL_BACKOFF_MS = 100;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

export interface RetryPolicy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** The headers of a dead-lettered message: the original ones plus why and where it failed. */
export function deadLetterHeaders(
  headers: Record<string, string>,
  topic: string,
  attempts: number,
  reason: string,
): Record<string, string> {
  return {
    ...headers,
    [FAILURE_REASON_HEADER]: reason,
    [FAILURE_ATTEMPTS_HEADER]: String(attempts),
    [ORIGINAL_TOPIC_HEADER]: topic,
  };
}

/** Delay before the retry that follows failed attempt `attempt` (1-based). */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'initialBackoffMs' | 'maxBackoffMs'>): number {
  return Math.min(policy.initialBackoffMs * 2 ** (attempt - 1), policy.maxBackoffMs);
}

/** The reason recorded in `FAILURE_REASON_HEADER`. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** The subscription's retry settings with the defaults every adapter uses. */
export function retryPolicy(options: SubscribeOptions): RetryPolicy {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const initialBackoffMs = options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS;
  const maxBackoffMs = Math.max(options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS, initialBackoffMs);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new Error(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  }
  if (initialBackoffMs < 0) throw new Error(`initialBackoffMs must not be negative, got ${initialBackoffMs}`);
  return { maxAttempts, initialBackoffMs, maxBackoffMs };
}
