import { statfs } from 'node:fs/promises';
import type { ServiceContext } from '@transcribe/core';

/** What `/ready` found: every check by name (`ok`, or what is wrong), and whether all passed. */
export interface Readiness {
  ready: boolean;
  checks: { database: string; queue: string; engine: string; disk: string; bot?: string };
}

export interface ReadinessOptions {
  /** Folder whose file system must keep `minFreeDiskBytes` free (DATA_DIR: uploads, work files, stored downloads). */
  dataDir: string;
  /** MIN_FREE_DISK_BYTES. */
  minFreeDiskBytes: number;
  /** Whether the job queue is started and not stopping. */
  queueRunning: () => boolean;
  /** Longest wait for the database's answer, ms (default 2000). */
  databaseTimeoutMs?: number;
  /** With the Telegram bot in this process (start-chat-bot.ts): `ok`, or why it does not run (yet). */
  bot?: () => string;
}

/**
 * Readiness, as `GET /ready` reports it (Kubernetes' readiness probe, a load balancer's health
 * check): ready only when the database answers `SELECT 1` in time, the job queue runs, a recognition
 * engine is loaded, the file system of DATA_DIR has at least `minFreeDiskBytes` free (a
 * prediction may need up to 6 GiB of work space, reliability.md), and, when the Telegram bot runs in
 * this process, the bot runs (check `bot`: while it cannot reach the Bot API it says why, e.g.
 * `connection refused at 127.0.0.1:8081`). Never throws: each failed check is described instead.
 * `/health` stays liveness only (the process answers).
 */
export async function checkReadiness(ctx: Pick<ServiceContext, 'database' | 'engine'>, options: ReadinessOptions): Promise<Readiness> {
  const timeoutMs = options.databaseTimeoutMs ?? 2_000;
  const database = await Promise.race([
    ctx.database.executeSql('SELECT 1').then(
      () => 'ok',
      (error: Error) => `the database does not answer: ${error.message.slice(0, 200)}`,
    ),
    new Promise<string>((resolve) => setTimeout(resolve, timeoutMs, `the database did not answer within ${timeoutMs} ms`).unref()),
  ]);
  const queue = options.queueRunning() ? 'ok' : 'the job queue is not running (starting or stopping)';
  const engine = ctx.engine ? 'ok' : 'no recognition engine is loaded';
  let disk: string;
  try {
    const stats = await statfs(options.dataDir);
    const free = Number(stats.bavail) * Number(stats.bsize);
    disk =
      free >= options.minFreeDiskBytes
        ? 'ok'
        : `only ${formatGiB(free)} free in DATA_DIR (${options.dataDir}); at least ${formatGiB(options.minFreeDiskBytes)} are needed (MIN_FREE_DISK_BYTES)`;
  } catch (error) {
    disk = `DATA_DIR (${options.dataDir}) cannot be read: ${(error as Error).message}`;
  }
  const checks = { database, queue, engine, disk, ...(options.bot ? { bot: options.bot() } : {}) };
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}

function formatGiB(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GiB`;
}
