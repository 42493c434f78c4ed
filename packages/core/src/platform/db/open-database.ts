import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { createAdvisoryLocks, createInProcessLocks, type NamedLocks } from './create-named-locks.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database: drizzle for the service's own tables, raw SQL for the job queue. */
export interface Database {
  db: Db;
  /**
   * The same connections as `db`, but every statement is a named prepared statement: PostgreSQL
   * parses and plans it once per connection and each later run of the same text is one round trip
   * (Bind/Execute) instead of two (drizzle runs its statements unprepared, so postgres.js sends
   * Parse/Describe, waits for the parameter types, then Bind/Execute, and PostgreSQL plans it anew).
   * Only for statements whose texts come from a small fixed set (the rate-limit upsert of
   * rate-limiter-flexible, whose statements are built inside the library; code of our own prepares its
   * hot statements with drizzle's `.prepare(name)`, as the prediction insert does): each distinct
   * text stays prepared on each of the pool's connections until it closes (postgres.js docs,
   * "prepare"), so a text that varies with the data would pile up. On PGlite it is `db`.
   */
  preparedDb: Db;
  kind: 'pglite' | 'postgres';
  /** Runs SQL for pg-boss; several statements allowed when `values` is empty. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Subscribes to a notification channel (PostgreSQL `LISTEN`; PGlite delivers its own `NOTIFY`s
   * in-process, right after the notifying transaction commits). `onNotify` gets each payload;
   * `onListen` runs every time the subscription is (re)established, so a caller knows that
   * notifications sent while the connection was down may have been missed (postgres.js re-listens
   * after a reconnect, docs: "sql.listen"). On PostgreSQL, `options.applicationName` puts the
   * subscription on a connection of its own with that `application_name`, so other processes can
   * count such subscribers in `pg_stat_activity`; PGlite ignores it.
   * @returns a function that ends the subscription.
   * @throws Error from the driver when the database cannot be reached.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListen?: () => void,
    options?: ListenOptions,
  ): Promise<() => Promise<void>>;
  /**
   * Exclusive named locks: PostgreSQL advisory locks on connections of their own (every process of
   * the database), or an in-process equivalent for PGlite (platform/db/create-named-locks.ts).
   */
  locks: NamedLocks;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** PostgreSQL `application_name` of a connection used for this subscription only. */
  applicationName?: string;
}

export interface OpenDatabaseOptions {
  /** `postgres://…` to use PostgreSQL; absent to use embedded PGlite in `pgliteDir`. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded PGlite database (one process only may open it). */
  pgliteDir?: string | undefined;
}

/** Folder of the drizzle-kit migrations (`drizzle/` at the repository root). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../../../drizzle', import.meta.url));

/**
 * Opens PostgreSQL (through the `postgres` driver) or PGlite and applies the drizzle migrations.
 * @throws Error from the driver when the database cannot be reached or a migration fails.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  if (!options.pgliteDir) throw new Error('openDatabase needs databaseUrl or pgliteDir');
  return openPglite(options.pgliteDir);
}

async function openPostgres(url: string): Promise<Database> {
  const sql = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzlePostgres(sql, { schema });
  const preparedDb = drizzlePostgres(alwaysPrepared(sql), { schema });
  await migratePostgres(db, { migrationsFolder: MIGRATIONS_DIR });
  /** Clients whose only connection is a named LISTEN connection (postgres.js opens it on the first listen). */
  const named = new Map<string, postgres.Sql>();
  const clientFor = (applicationName: string | undefined) => {
    if (!applicationName) return sql;
    let client = named.get(applicationName);
    if (!client) {
      // LISTEN only, no arrays to parse: no fetch_types, whose unawaited read rejects unhandled when a close meets it.
      client = postgres(url, { max: 1, fetch_types: false, onnotice: () => {}, connection: { application_name: applicationName } });
      named.set(applicationName, client);
    }
    return client;
  };
  return {
    db: db as unknown as Db,
    preparedDb: preparedDb as unknown as Db,
    kind: 'postgres',
    locks: createAdvisoryLocks(url, sql),
    async executeSql(text, values) {
      const rows = values?.length ? await sql.unsafe(text, values as never[]) : await sql.unsafe(text);
      return { rows: Array.from(rows) };
    },
    async listen(channel, onNotify, onListen, options) {
      const { unlisten } = await clientFor(options?.applicationName).listen(channel, onNotify, onListen);
      return async () => void (await unlisten());
    },
    async close() {
      await Promise.all([...named.values()].map((client) => client.end({ timeout: 5 })));
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * `sql` whose `unsafe` (all drizzle calls) always asks for a prepared statement; postgres.js then
 * keeps it per connection under its types and text (its `statements` cache) and reuses it.
 */
function alwaysPrepared(sql: postgres.Sql): postgres.Sql {
  const unsafe = (query: string, parameters?: never[], options?: postgres.UnsafeQueryOptions) =>
    sql.unsafe(query, parameters, { ...options, prepare: true });
  return new Proxy(sql, {
    get: (target, property, receiver) => (property === 'unsafe' ? unsafe : Reflect.get(target, property, receiver)),
  });
}

/** PGlite is loaded only here (about 50 MB of memory once imported), never in a PostgreSQL deployment. */
async function openPglite(dir: string): Promise<Database> {
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  await mkdir(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db: db as unknown as Db,
    preparedDb: db as unknown as Db,
    kind: 'pglite',
    locks: createInProcessLocks(),
    async executeSql(text, values) {
      if (values?.length) return { rows: (await client.query(text, values)).rows };
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    async listen(channel, onNotify, onListen) {
      const unsubscribe = await client.listen(channel, onNotify);
      onListen?.();
      return unsubscribe;
    },
    close: () => client.close(),
  };
}
