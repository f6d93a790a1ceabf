import { describe, expect, it } from 'vitest';
import { retryOnConflict } from './conflict-retry.js';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
/** Like drizzle: the database's error as the cause of a query error. */
const wrapped = (code: string) => new Error('Failed query', { cause: pgError(code) });

describe('retryOnConflict', () => {
  it('tries again after a deadlock, a serialization failure or a lost unique-key race', async () => {
    for (const code of ['40P01', '40001', '23505']) {
      let calls = 0;
      const result = await retryOnConflict(async () => {
        calls += 1;
        if (calls === 1) throw wrapped(code);
        return 'done';
      });
      expect([result, calls]).toEqual(['done', 2]);
    }
  });

  it('gives up after the last attempt, and never retries other errors', async () => {
    let calls = 0;
    await expect(retryOnConflict(async () => { calls += 1; throw wrapped('40P01'); }, 3)).rejects.toThrow('Failed query');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryOnConflict(async () => { calls += 1; throw pgError('23503'); })).rejects.toThrow('pg 23503');
    await expect(retryOnConflict(async () => { calls += 1; throw new Error('not a database error'); })).rejects.toThrow();
    expect(calls).toBe(2);
  });
});
