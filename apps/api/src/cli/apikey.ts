import { resolve, join } from 'node:path';
import {
  createApiKey,
  findDatabase,
  listApiKeys,
  openDatabase,
  revokeApiKey,
  type ApiKeySummary,
  type Database,
  type RevokedApiKey,
} from '@transcribe/core';
import { parseEnv } from '../env.ts';
import { readLiveServiceLock, type ServiceLockInfo } from '../service-lock.ts';
import { CliError, createCli, EXIT, exitCodeOf, runCli } from './create-cli.ts';

/** A key as `list` shows it, whether it came from the database or over loopback (dates then as ISO text). */
type ListedKey = Omit<ApiKeySummary, 'createdAt' | 'revokedAt'> & { createdAt: Date | string; revokedAt: Date | string | null };

/** The three key operations, done either on the database or through the running service. */
interface KeyStore {
  /** Where the keys are, in words (`the running service … on the embedded database in …`). */
  where: string;
  create(label: string): Promise<{ id: string; secret: string }>;
  list(): Promise<ListedKey[]>;
  revoke(id: string): Promise<Pick<RevokedApiKey, 'id'> & { revokedAt: Date | string; alreadyRevokedAt: Date | string | null }>;
}

function databaseStore(database: Database, where: string): KeyStore {
  const { db } = database;
  return {
    where,
    create: (label) => createApiKey(db, label),
    list: () => listApiKeys(db),
    revoke: (id) => revokeApiKey(db, id, { confirmWith: database, log: (message) => console.error(message) }),
  }; // a CLI: its operator reads stderr
}

/** PGlite admits one process: while the service runs, ask it over loopback with its admin token. */
function serviceStore(lock: ServiceLockInfo, dataDir: string): KeyStore {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${lock.port}/internal${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-admin-token': lock.adminToken },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const payload = (await response.json()) as { detail?: string };
    if (response.status === 404 && payload.detail?.startsWith('No API key')) throw new CliError(payload.detail, EXIT.notFound);
    if (!response.ok) throw new Error(payload.detail ?? `the running service answered HTTP ${response.status}`);
    return payload;
  };
  return {
    where: `the running service (process ${lock.pid}, port ${lock.port}), on its embedded database in ${join(dataDir, 'pglite')}`,
    create: async (label) => (await call('POST', '/api-keys', { label })) as { id: string; secret: string },
    list: async () => (await call('GET', '/api-keys')) as unknown as ListedKey[],
    revoke: async (id) =>
      (await call('POST', `/api-keys/${encodeURIComponent(id)}/revoke`)) as unknown as Awaited<ReturnType<KeyStore['revoke']>>,
  };
}

/**
 * Runs `action` on the running service (PGlite, over loopback) or on the database, printing an error
 * in one line with its exit code (create-cli.ts EXIT). A database the service never used (a
 * mistyped DATA_DIR, a new DATABASE_URL) is refused with EXIT.noDatabase unless `createDatabase`:
 * the key would land where the running service never looks.
 */
async function withStore(action: (store: KeyStore) => Promise<void>, options: { createDatabase?: boolean } = {}): Promise<void> {
  const env = parseEnv();
  const dataDir = resolve(env.DATA_DIR);
  try {
    const lock = env.DATABASE_URL ? null : await readLiveServiceLock(dataDir);
    if (lock) return await action(serviceStore(lock, dataDir));
    const location = { databaseUrl: env.DATABASE_URL, pgliteDir: join(dataDir, 'pglite') };
    const found = await findDatabase(location);
    if (!found.used && !options.createDatabase) {
      const setting = env.DATABASE_URL ? 'DATABASE_URL' : `DATA_DIR (now ${dataDir})`;
      throw new CliError(
        `no service database in ${found.where}, and no service is running on it. Set ${setting} to what the service uses ` +
          '(the DATA_DIR or DATABASE_URL of its .env, unit file or compose file), or pass --create-database to `create` to make a new database there.',
        EXIT.noDatabase,
      );
    }
    const database = await openDatabase(location);
    try {
      await action(databaseStore(database, found.where));
    } finally {
      await database.close();
    }
  } catch (error) {
    console.error(`apikey: ${(error as Error).message}`);
    process.exitCode = exitCodeOf(error);
  }
}

const iso = (date: Date | string) => new Date(date).toISOString();

/** A key's state as `list` shows it: `active`, `stops working at …` (a reissue's grace period) or `revoked at …`. */
function stateOf(key: ListedKey, now: Date): string {
  if (!key.revokedAt) return 'active';
  return new Date(key.revokedAt) > now ? `stops working at ${iso(key.revokedAt)}` : `revoked at ${iso(key.revokedAt)}`;
}

/** Rows as columns padded to their widest cell (the last column is not padded). */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '))
    .join('\n');
}

const program = createCli('apikey', 'Create, list and revoke API keys (on the running service, or on the database when none runs).');
program
  .command('create')
  .description('make a key; the key is the last line of the output (shown only now)')
  .option('--label <name>', 'a name for the key', 'unnamed')
  .option('--create-database', 'make a new database when DATA_DIR / DATABASE_URL names one the service never used')
  .action((options: { label: string; createDatabase?: boolean }) =>
    withStore(
      async (store) => {
        const key = await store.create(options.label);
        console.log(`Created API key ${key.id} (label "${options.label}") in ${store.where}. It is shown only now; keep it secret:`);
        console.log(key.secret);
      },
      { createDatabase: options.createDatabase === true },
    ),
  );
program
  .command('list')
  .description('list keys (never the secret): id, prefix, created, owner (a portal or Telegram user; - for keys made here), state, label')
  .action(() =>
    withStore(async (store) => {
      const keys = await store.list();
      if (keys.length === 0) {
        console.log(`No API keys in ${store.where}. Make one with \`npm run apikey -- create --label NAME\`.`);
        return;
      }
      const now = new Date();
      console.log(`API keys in ${store.where}:`);
      const rows = keys.map((key) => [key.id, `${key.prefix}…`, iso(key.createdAt), key.owner ?? '-', stateOf(key, now), key.label]);
      console.log(table([['ID', 'PREFIX', 'CREATED', 'OWNER', 'STATE', 'LABEL'], ...rows]));
    }),
  );
program
  .command('revoke')
  .description('revoke a key at once, in every process')
  .argument('<id>', 'the key id, as `list` shows it (key_…)')
  .action((id: string) =>
    withStore(async (store) => {
      const result = await store.revoke(id);
      console.log(
        result.alreadyRevokedAt
          ? `${id} was already revoked: it stopped working at ${iso(result.alreadyRevokedAt)}. Nothing changed.`
          : `Revoked ${id} in ${store.where}: it stopped working at ${iso(result.revokedAt)}.`,
      );
    }),
  );
await runCli(program);
