/**
 * Read and adjust identity's rows in the test PostgreSQL directly: to check what is stored (hashes,
 * never tokens) and to move timestamps into the past instead of waiting days for an expiry.
 */
import pg from 'pg';
import { testDatabaseUrl } from '@parlance/platform/testing/infra';

let pool: pg.Pool | undefined;

export async function identitySql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  return (await pool.query<T>(text, values)).rows;
}

export async function closeIdentitySql(): Promise<void> {
  await pool?.end();
  pool = undefined;
}
