import { sqlState } from './database.js';

/**
 * Retries a transaction that lost a race PostgreSQL resolves by aborting one side: a deadlock
 * (40P01), a serialization failure (40001), or a unique key taken by a concurrent insert (23505),
 * after which the retry reads what the other side wrote. PGlite has one connection and never
 * raises these.
 */
const RETRYABLE = new Set(['40P01', '40001', '23505']);

export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const state = sqlState(error);
      if (attempt >= attempts || state === undefined || !RETRYABLE.has(state)) throw error;
    }
  }
}
