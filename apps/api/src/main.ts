import { parseEnv } from './env.ts';
import { logStrayRejections } from './log-stray-rejections.ts';
import { startService, type RunningService } from './start-service.ts';

/** `npm start`: the HTTP API and the worker in one process, embedded defaults. */
const env = parseEnv();
logStrayRejections('service'); // a database outage must not end the process
let service: RunningService | null = null;
let stopping = false;

/** Drains and stops the started service, then exits (0, or 1 when the stop fails). */
function stopAndExit(running: RunningService): void {
  running.stop().then(
    () => process.exit(0),
    (error) => {
      console.error('[service] stop failed:', error);
      process.exit(1);
    },
  );
}

// Installed before the service starts: a SIGTERM that arrives while it is still starting (its port
// may already answer) is honoured once the start is done, instead of killing the process mid-start.
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`[service] ${signal}: finishing running work, then stopping`);
  if (service) stopAndExit(service);
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
try {
  service = await startService(env);
  console.log(`[service] listening on ${service.url} (API base ${service.ctx.config.apiBaseUrl}); engine ${service.ctx.engine.name}`);
  if (stopping) stopAndExit(service);
} catch (error) {
  console.error(`[service] could not start: ${(error as Error).message}`);
  process.exit(1);
}
