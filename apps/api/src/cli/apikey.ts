import { resolve, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey, listApiKeys, openDatabase, revokeApiKey, type Database } from '@transcribe/core';
import { parseEnv } from '../env.ts';
import { readLiveServiceLock, type ServiceLockInfo } from '../service-lock.ts';

const USAGE = `Usage:
  npm run apikey -- create --label NAME   make a key; the key is the last line of the output
  npm run apikey -- list                  list keys (never the secret)
  npm run apikey -- revoke ID             revoke a key at once`;

/** The three key operations, done either on the database or through the running service. */
interface KeyStore {
  create(label: string): Promise<{ id: string; secret: string }>;
  list(): Promise<{ id: string; label: string; prefix: string; createdAt: Date | string; revokedAt: Date | string | null }[]>;
  revoke(id: string): Promise<void>;
}

function databaseStore(database: Database): KeyStore {
  const { db } = database;
  return { create: (label) => createApiKey(db, label), list: () => listApiKeys(db), revoke: (id) => revokeApiKey(db, id, { confirmWith: database }) };
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

async function run(store: KeyStore, command: string | undefined, args: string[], label: string | undefined): Promise<void> {
  if (command === 'create') {
    const key = await store.create(label ?? 'unnamed');
    console.log(`Created API key ${key.id} (label "${label ?? 'unnamed'}"). It is shown only now; keep it secret:`);
    console.log(key.secret);
  } else if (command === 'list') {
    for (const key of await store.list()) {
      const revoked = key.revokedAt ? ` revoked ${new Date(key.revokedAt).toISOString()}` : '';
      console.log(`${key.id}  ${key.prefix}…  ${new Date(key.createdAt).toISOString()}  ${key.label}${revoked}`);
    }
  } else if (command === 'revoke' && args[0]) {
    await store.revoke(args[0]);
    console.log(`Revoked ${args[0]}.`);
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { label: { type: 'string' } } });
const env = parseEnv();
const dataDir = resolve(env.DATA_DIR);
const lock = env.DATABASE_URL ? null : await readLiveServiceLock(dataDir);
try {
  if (lock) {
    await run(serviceStore(lock), positionals[0], positionals.slice(1), values.label);
  } else {
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: join(dataDir, 'pglite') });
    try {
      await run(databaseStore(database), positionals[0], positionals.slice(1), values.label);
    } finally {
      await database.close();
    }
  }
} catch (error) {
  console.error(`apikey: ${(error as Error).message}`);
  process.exitCode = 1;
}
