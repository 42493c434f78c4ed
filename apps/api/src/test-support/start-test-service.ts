import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '@transcribe/core';
import { parseEnv } from '../env.ts';
import { startService, type RunningService } from '../start-service.ts';
import { createTestDatabase, type TestDatabase } from './create-test-database.ts';
import { seedPgliteDataDir } from './pglite-template.ts';

export type TestDatabaseKind = 'pglite' | 'postgres';

export interface TestService {
  service: RunningService;
  /** Root URL, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  /** Base for the Python client style: `{url}/v1/replicate`. */
  replicateBase: string;
  /** A live API key. */
  key: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the real service in this process on a free port with a fresh data directory and database
 * (PGlite in the data directory, copied from a migrated template (pglite-template.ts), or a new
 * PostgreSQL database, or the one `env.DATABASE_URL` names, which the caller then drops), plus one
 * API key.
 */
export async function startTestService(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  options: Parameters<typeof startService>[1] = {},
): Promise<TestService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'transcribe-test-'));
  // An env that names DATABASE_URL shares that database (several services on one database).
  const database: TestDatabase | null = kind === 'postgres' && !env.DATABASE_URL ? await createTestDatabase() : null;
  if (kind === 'pglite' && !env.DATABASE_URL) await seedPgliteDataDir(dataDir);
  const service = await startService(
    parseEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_NETWORK: '1',
      LOG_LEVEL: 'silent', // a test that reads the logs sets LOG_LEVEL and a destination
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    }),
    options,
  );
  const key = await createApiKey(service.ctx.database.db, 'test');
  return {
    service,
    url: service.url,
    replicateBase: `${service.url}/v1/replicate`,
    key: key.secret,
    dataDir,
    async stop() {
      await service.stop();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
