import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { startService } from './start-service.ts';

/** `npm start`: the HTTP API and the worker in one process, embedded defaults (issue 2). */
const env = parseEnv();
logStrayRejections('service'); // a database outage must not end the process (issue 9)
try {
  const service = await startService(env);
  console.log(`[service] listening on ${service.url} (API base ${service.ctx.config.apiBaseUrl}); engine ${service.ctx.engine.name}`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[service] ${signal}: finishing running work, then stopping`);
    service.stop().then(
      () => process.exit(0),
      (error) => {
        console.error('[service] stop failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  console.error(`[service] could not start: ${(error as Error).message}`);
  process.exit(1);
}
