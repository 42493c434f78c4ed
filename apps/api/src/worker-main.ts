import type { Server } from 'node:http';
import { createCli, runCli } from './cli/create-cli.ts';
import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { createServiceLogger } from './logging/create-service-logger.ts';
import { serveMetrics } from './metrics/serve-metrics.ts';
import { startService } from './start-service.ts';
import { stopOnSignals } from './stop-on-signals.ts';

/**
 * `npm run worker`: a worker process without the HTTP API, sharing the PostgreSQL queue with the
 * service and other workers. Needs DATABASE_URL (PGlite admits one process only). Its lines go
 * through the structured logger (LOG_LEVEL; component `worker`). With METRICS_PORT it serves its
 * own `GET /metrics` (metrics/serve-metrics.ts): the predictions it runs are counted only here.
 */
async function runWorker(): Promise<void> {
  const env = parseEnv();
  const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
  logStrayRejections('worker', logger); // a database outage must not end the process
  if (!env.DATABASE_URL) {
    logger.fatal({ component: 'worker' }, 'DATABASE_URL is required: extra workers share a PostgreSQL queue (PGlite admits one process).');
    process.exit(1);
  }
  // Installed before the start: a SIGTERM during start-up is honoured once the start is done.
  const signals = stopOnSignals(logger, 'worker');
  try {
    const service = await startService(env, { http: false, logger });
    let metricsServer: Server | null = null;
    if (env.METRICS_PORT !== undefined) {
      metricsServer = await serveMetrics(service.metrics, env.METRICS_PORT, env.HOST, env.METRICS_TOKEN);
      const { port } = metricsServer.address() as { port: number };
      logger.info({ component: 'worker', port }, `serving GET /metrics on ${env.HOST}:${port}`);
    }
    logger.info(
      { component: 'worker', engine: service.ctx.engine.name },
      `taking jobs (concurrency ${env.WORKER_CONCURRENCY}, engine ${service.ctx.engine.name})`,
    );
    signals.started((reason) => {
      metricsServer?.close();
      return service.stop(reason);
    });
  } catch (error) {
    logger.fatal({ component: 'worker' }, `could not start: ${(error as Error).message}`);
    process.exit(1);
  }
}

const program = createCli(
  'worker',
  'A worker process without the HTTP API: takes transcription jobs from the shared PostgreSQL queue (DATABASE_URL). Settings come from the environment (README, "Configuration").',
);
program.action(runWorker);
await runCli(program);
