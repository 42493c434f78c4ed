import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { createServiceLogger } from './logging/create-service-logger.ts';
import { startService } from './start-service.ts';
import { stopOnSignals } from './stop-on-signals.ts';
import { createStartUpClock } from './time-start-up.ts';

/**
 * `npm start`: the HTTP API and the worker in one process, embedded defaults. Everything it says
 * goes through one structured logger (LOG_LEVEL, default info; component `service` for its own
 * lines: listening, stopping, stopped, could not start).
 */
const clock = createStartUpClock({ fromProcessStart: true });
clock.mark('imports'); // Node's boot, the TypeScript loader and every module this entry imports
const env = parseEnv();
const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
logStrayRejections('service', logger); // a database outage must not end the process
// Installed before the service starts: a SIGTERM that arrives while it is still starting (its port
// may already answer) is honoured once the start is done, instead of killing the process mid-start.
const signals = stopOnSignals(logger, 'service');
try {
  const service = await startService(env, { logger, clock });
  const seconds = service.startUp.reduce((sum, phase) => sum + phase.seconds, 0);
  logger.info(
    {
      component: 'service',
      url: service.url,
      api_base: service.ctx.config.apiBaseUrl,
      engine: service.ctx.engine.name,
      start_up_seconds: Math.round(seconds * 1000) / 1000,
      start_up: service.startUp, // each phase's wall-clock and CPU seconds (time-start-up.ts; bench/startup.ts reads them)
    },
    `listening on ${service.url} (API base ${service.ctx.config.apiBaseUrl}); engine ${service.ctx.engine.name}; started in ${seconds.toFixed(1)} s`,
  );
  signals.started((reason) => service.stop(reason));
} catch (error) {
  logger.fatal({ component: 'service' }, `could not start: ${(error as Error).message}`);
  process.exit(1);
}
