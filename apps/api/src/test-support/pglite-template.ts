import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from '../env.ts';
import { startService } from '../start-service.ts';
import { REPO_ROOT } from './shared-paths.ts';

const MIGRATIONS_DIR = join(REPO_ROOT, 'drizzle');

let template: Promise<string> | undefined;

/**
 * Puts a migrated PGlite database into `dataDir/pglite`, copied from a template that one real
 * service start made (PGlite's initdb, every migration, pg-boss's schema), so a test's service opens
 * an existing database instead of creating one. Measured on the 2-core machine: a service start on a
 * fresh PGlite directory costs 8.5–13.5 s of CPU, one on a copied directory about 3 s; the suite
 * starts well over a hundred services.
 *
 * The template lives in the OS temp folder under a hash of the migrations and the PGlite and pg-boss
 * versions, so a new migration or upgrade makes a new one; test processes that race to make it each
 * build their own and keep the first that is renamed into place (a directory rename is atomic).
 * A fresh start (initdb and migrations on an empty folder) stays tested by every test that starts a
 * service without this (the spawned-process tests of first start and `npm start`).
 *
 * @param dataDir the service's DATA_DIR; must not hold a `pglite` folder yet.
 * @throws when the template's service fails to start or the copy fails (disk full).
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  template ??= ensureTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  await cp(join(await template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

async function ensureTemplate(): Promise<string> {
  const path = join(tmpdir(), `transcribe-pglite-template-${await templateKey()}`);
  if (await exists(join(path, 'pglite'))) return path;
  const building = await mkdtemp(join(tmpdir(), 'transcribe-pglite-building-'));
  try {
    const service = await startService(
      parseEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: building, ALLOW_PRIVATE_NETWORK: '1', LOG_LEVEL: 'silent' }),
    );
    await service.stop();
    await rm(join(building, 'pglite', 'postmaster.pid'), { force: true });
    await rename(building, path).catch(async (error: NodeJS.ErrnoException) => {
      // Another test process renamed its template into place first: use that one.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(building, { recursive: true, force: true });
    });
    return path;
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
}

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(MIGRATIONS_DIR, { recursive: true })).sort()) {
    const file = join(MIGRATIONS_DIR, name);
    if ((await stat(file)).isFile()) hash.update(name).update(await readFile(file));
  }
  for (const pkg of ['@electric-sql/pglite', 'pg-boss']) {
    hash.update(await readFile(join(REPO_ROOT, 'node_modules', pkg, 'package.json')));
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
