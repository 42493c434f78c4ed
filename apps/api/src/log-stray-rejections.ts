import type { Logger } from 'pino';
import { createServiceLogger } from './logging/create-service-logger.ts';

/**
 * Keeps a service or worker process alive when a background promise rejects unobserved, logging it
 * instead (an error line, component `process`, with `process_name`). pg-boss 10 calls
 * `complete`/`fail` of a finished job without awaiting them (manager.js `onFetch`), so a database
 * that goes away at that moment would otherwise end the whole process through Node's default
 * `--unhandled-rejections=throw`. postgres.js 3.4.9 likewise drops the promise of the type query it runs
 * on each new connection (`fetchArrayTypes`, porsager/postgres#1192, open), which rejects when the
 * database refuses or ends that connection. Nothing is lost by continuing: a job whose completion was not
 * recorded is retried through its lease or its expiry (docs/reliability.md). Call once, from an
 * entry point only (never from tests or libraries).
 * @param processName `service`, `worker` or `bot`: which entry point the line came from.
 * @param logger the process's logger; default a new one at LOG_LEVEL (info), for entry points that
 *   have none yet.
 */
export function logStrayRejections(
  processName: string,
  logger: Logger = createServiceLogger({ level: process.env.LOG_LEVEL ?? 'info' }),
): void {
  process.on('unhandledRejection', (reason) => {
    const message = reason instanceof Error ? reason.message.split('\n')[0] : String(reason);
    logger.error(
      { component: 'process', process_name: processName },
      `a background operation failed and was left to its retry: ${message}`,
    );
  });
}
