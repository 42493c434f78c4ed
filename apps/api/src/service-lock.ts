import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isPidRunning } from '@transcribe/core';

/** What a running service writes to DATA_DIR/service.json so the CLI can reach it over loopback. */
export interface ServiceLockInfo {
  pid: number;
  port: number;
  adminToken: string;
}

export function serviceLockPath(dataDir: string): string {
  return join(dataDir, 'service.json');
}


/** Reads the lock of a service that is still running, or null when none runs (a stale file is ignored). */
export async function readLiveServiceLock(dataDir: string): Promise<ServiceLockInfo | null> {
  try {
    const info = JSON.parse(await readFile(serviceLockPath(dataDir), 'utf8')) as ServiceLockInfo;
    return isPidRunning(info.pid) && info.pid !== process.pid ? info : null;
  } catch {
    return null;
  }
}

/** Writes the lock file readable by its owner only (it holds the admin token). */
export async function writeServiceLock(dataDir: string, info: ServiceLockInfo): Promise<void> {
  await writeFile(serviceLockPath(dataDir), JSON.stringify(info), { mode: 0o600 });
}

export async function removeServiceLock(dataDir: string): Promise<void> {
  await rm(serviceLockPath(dataDir), { force: true });
}
