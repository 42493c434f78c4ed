import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { TEST_POSTGRES_URL } from './shared-paths.ts';

/** A throw-away PostgreSQL database for one test file, dropped by `drop()`. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates `t_<random>` on the test server so test files never share tables or queues. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleaner = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
      await cleaner.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleaner.end();
    },
  };
}
