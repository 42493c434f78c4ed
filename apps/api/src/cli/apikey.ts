import { resolve, join } from 'node:path';
import { createApiKey, listApiKeys, openDatabase, revokeApiKey, type Database } from '@transcribe/core';
import { parseEnv } from '../env.ts';
import { readLiveServiceLock, type ServiceLockInfo } from '../service-lock.ts';
import { createCli, runCli } from './create-cli.ts';

/** The three key operations, done either on the database or through the running service. */
interface KeyStore {
  create(label: string): Promise<{ id: string; secret: string }>;
  list(): Promise<{ id: string; label: string; prefix: string; createdAt: Date | string; revokedAt: Date | string | null }[]>;
  revoke(id: string): Promise<void>;
}

function databaseStore(database: Database): KeyStore {
  const { db } = database;
  return {
    create: (label) => createApiKey(db, label),
    list: () => listApiKeys(db),
    revoke: (id) => revokeApiKey(db, id, { confirmWith: database, log: (message) => console.error(message) }),
  }; // a CLI: its operator reads stderr
}

/** PGlite admits one process: while the service runs, ask it over loopback with its admin token. */
function serviceStore(lock: ServiceLockInfo): KeyStore {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${lock.port}/internal${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-admin-token': lock.adminToken },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const payload = (await response.json()) as { detail?: string };
    if (!response.ok) throw new Error(payload.detail ?? `the running service answered HTTP ${response.status}`);
    return payload;
  };
  return {
    create: async (label) => (await call('POST', '/api-keys', { label })) as { id: string; secret: string },
    list: async () => (await call('GET', '/api-keys')) as unknown as Awaited<ReturnType<KeyStore['list']>>,
    revoke: async (id) => void (await call('POST', `/api-keys/${encodeURIComponent(id)}/revoke`)),
  };
}

/** Runs `action` on the running service (PGlite) or the database, printing an error in one line (exit 1). */
async function withStore(action: (store: KeyStore) => Promise<void>): Promise<void> {
  const env = parseEnv();
  const dataDir = resolve(env.DATA_DIR);
  const lock = env.DATABASE_URL ? null : await readLiveServiceLock(dataDir);
  try {
    if (lock) return await action(serviceStore(lock));
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: join(dataDir, 'pglite') });
    try {
      await action(databaseStore(database));
    } finally {
      await database.close();
    }
  } catch (error) {
    console.error(`apikey: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

const program = createCli('apikey', 'Create, list and revoke API keys (on the running service, or on the database when none runs).');
program
  .command('create')
  .description('make a key; the key is the last line of the output (shown only now)')
  .option('--label <name>', 'a name for the key', 'unnamed')
  .action((options: { label: string }) =>
    withStore(async (store) => {
      const key = await store.create(options.label);
      console.log(`Created API key ${key.id} (label "${options.label}"). It is shown only now; keep it secret:`);
      console.log(key.secret);
    }),
  );
program
  .command('list')
  .description('list keys (never the secret)')
  .action(() =>
    withStore(async (store) => {
      for (const key of await store.list()) {
        const revoked = key.revokedAt ? ` revoked ${new Date(key.revokedAt).toISOString()}` : '';
        console.log(`${key.id}  ${key.prefix}…  ${new Date(key.createdAt).toISOString()}  ${key.label}${revoked}`);
      }
    }),
  );
program
  .command('revoke')
  .description('revoke a key at once, in every process')
  .argument('<id>', 'the key id, as `list` shows it (key_…)')
  .action((id: string) =>
    withStore(async (store) => {
      await store.revoke(id);
      console.log(`Revoked ${id}.`);
    }),
  );
await runCli(program);
