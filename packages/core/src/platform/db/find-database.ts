import { access } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import type { OpenDatabaseOptions } from './open-database.ts';

/** Where a database of the service is and whether the service ever used it (findDatabase). */
export interface FoundDatabase {
  /**
   * Words for a person: `the embedded database in /srv/data/pglite` or
   * `PostgreSQL database "transcribe" on db:5432` (never the user or password of DATABASE_URL).
   */
  where: string;
  /** True when the service's tables are there (its migrations ran); false for an empty or missing database. */
  used: boolean;
}

/**
 * Looks at the database `options` names without creating or changing anything, so a command-line
 * program can refuse a fresh one: a mistyped DATA_DIR would otherwise get a new, empty embedded
 * database whose keys the running service never sees (openDatabase creates the folder and applies
 * the migrations). PGlite: used when its folder holds `PG_VERSION` (the file every PostgreSQL data
 * folder has, PostgreSQL docs "Database File Layout"). PostgreSQL: used when the `api_keys` table
 * exists (`to_regclass`); the connection is opened for this one query and closed.
 * @throws Error from the driver when PostgreSQL cannot be reached, or the database does not exist.
 */
export async function findDatabase(options: OpenDatabaseOptions): Promise<FoundDatabase> {
  if (options.databaseUrl) {
    const where = describePostgres(options.databaseUrl);
    const sql = postgres(options.databaseUrl, { max: 1, fetch_types: false, onnotice: () => {}, connect_timeout: 10 });
    try {
      const [row] = await sql<{ used: boolean }[]>`select to_regclass('public.api_keys') is not null as used`;
      return { where, used: row?.used === true };
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
  if (!options.pgliteDir) throw new Error('findDatabase needs databaseUrl or pgliteDir');
  const used = await access(join(options.pgliteDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  return { where: `the embedded database in ${options.pgliteDir}`, used };
}

/** `PostgreSQL database "name" on host:port` of a `postgres://` URL, without its credentials. */
function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    const name = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)';
    return `PostgreSQL database "${name}" on ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}
