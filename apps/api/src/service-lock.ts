import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isPidRunning } from '@transcribe/core';

/** What a running service writes to DATA_DIR/service.json so the CLI can reach it over loopback. */
export interface ServiceLockInfo {
  pid: number;
  port: number;
  adminToken: string;
}

/** Where the lock file lives: `DATA_DIR/service.json`. */
export function serviceLockPath(dataDir: string): string {
  return join(dataDir, 'service.json');
}

/**
 * Reads the lock of a service that is still running, or null when none runs (a stale file is ignored).
 * @throws Error when the folder's owner names no port (port 0: a bot-alone process of an earlier
 *   version; `npm run bot` now serves the admin routes, start-admin-server.ts), since the caller could
 *   neither reach it over loopback nor open the embedded database beside it.
 */
export async function readLiveServiceLock(dataDir: string): Promise<ServiceLockInfo | null> {
  let info: ServiceLockInfo;
  try {
    info = JSON.parse(await readFile(serviceLockPath(dataDir), 'utf8')) as ServiceLockInfo;
    if (!isPidRunning(info.pid) || info.pid === process.pid) return null;
  } catch {
    return null;
  }
  if (info.port === 0) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by the bot running alone as process ${info.pid} (npm run bot), ` +
        'which serves no API and PGlite allows one process. Stop it first, run "npm start" instead (it runs the bot too), or set DATABASE_URL to use PostgreSQL.',
    );
  }
  return info;
}

/** Writes the lock file readable by its owner only (it holds the admin token). */
export async function writeServiceLock(dataDir: string, info: ServiceLockInfo): Promise<void> {
  await writeFile(serviceLockPath(dataDir), JSON.stringify(info), { mode: 0o600 });
}

/** Deletes the lock file on shutdown; no error when it is already gone. */
export async function removeServiceLock(dataDir: string): Promise<void> {
  await rm(serviceLockPath(dataDir), { force: true });
}
