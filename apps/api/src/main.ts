import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { createServiceLogger } from './logging/create-service-logger.ts';
import { startService, type RunningService } from './start-service.ts';

/**
 * `npm start`: the HTTP API and the worker in one process, embedded defaults. Everything it says
 * goes through one structured logger (LOG_LEVEL, default info; component `service` for its own
 * lines: listening, stopping, could not start).
 */
const env = parseEnv();
const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
logStrayRejections('service', logger); // a database outage must not end the process
let service: RunningService | null = null;
let stopping = false;

/** Drains and stops the started service, then exits (0, or 1 when the stop fails). */
function stopAndExit(running: RunningService): void {
  running.stop().then(
    () => process.exit(0),
    (error: Error) => {
      logger.error(
        { component: 'service', err: { type: error.name, message: error.message, stack: error.stack } },
        `stop failed: ${error.message}`,
      );
      process.exit(1);
    },
  );
}

// Installed before the service starts: a SIGTERM that arrives while it is still starting (its port
// may already answer) is honoured once the start is done, instead of killing the process mid-start.
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ component: 'service', signal }, `${signal}: finishing running work, then stopping`);
  if (service) stopAndExit(service);
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
try {
  service = await startService(env, { logger });
  logger.info(
    { component: 'service', url: service.url, api_base: service.ctx.config.apiBaseUrl, engine: service.ctx.engine.name },
    `listening on ${service.url} (API base ${service.ctx.config.apiBaseUrl}); engine ${service.ctx.engine.name}`,
  );
  if (stopping) stopAndExit(service);
} catch (error) {
  logger.fatal({ component: 'service' }, `could not start: ${(error as Error).message}`);
  process.exit(1);
}
