import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { createServiceLogger } from './logging/create-service-logger.ts';
import { startService } from './start-service.ts';
import { stopOnSignals } from './stop-on-signals.ts';

/**
 * `npm start`: the HTTP API and the worker in one process, embedded defaults. Everything it says
 * goes through one structured logger (LOG_LEVEL, default info; component `service` for its own
 * lines: listening, stopping, stopped, could not start).
 */
const env = parseEnv();
const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
logStrayRejections('service', logger); // a database outage must not end the process
// Installed before the service starts: a SIGTERM that arrives while it is still starting (its port
// may already answer) is honoured once the start is done, instead of killing the process mid-start.
const signals = stopOnSignals(logger, 'service');
try {
  const service = await startService(env, { logger });
  logger.info(
    { component: 'service', url: service.url, api_base: service.ctx.config.apiBaseUrl, engine: service.ctx.engine.name },
    `listening on ${service.url} (API base ${service.ctx.config.apiBaseUrl}); engine ${service.ctx.engine.name}`,
  );
  signals.started((reason) => service.stop(reason));
} catch (error) {
  logger.fatal({ component: 'service' }, `could not start: ${(error as Error).message}`);
  process.exit(1);
}
