import { parseEnv } from '../../api/src/env.ts';
import { logStrayRejections } from '../../api/src/log-stray-rejections.ts';
import { createServiceLogger } from '../../api/src/logging/create-service-logger.ts';
import { startBotAlone, type RunningBotAlone } from './start-bot-alone.ts';

/**
 * `npm run bot`: the Telegram bot alone with the core, no HTTP API (start-bot-alone.ts). Settings
 * come from the environment (README, "Configuration"); exits 1 when it cannot start. SIGTERM and
 * SIGINT stop the bot, let running work end, then exit 0. Everything it says goes through one
 * structured logger (LOG_LEVEL, default info; component `bot`).
 */
const env = parseEnv();
const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
logStrayRejections('bot', logger); // a database outage must not end the process
let running: RunningBotAlone | null = null;
let stopping = false;

/** Stops the started bot and core, then exits (0, or 1 when the stop fails). */
function stopAndExit(bot: RunningBotAlone): void {
  bot.stop().then(
    () => process.exit(0),
    (error: Error) => {
      logger.error(
        { component: 'bot', err: { type: error.name, message: error.message, stack: error.stack } },
        `stop failed: ${error.message}`,
      );
      process.exit(1);
    },
  );
}

// Installed before the start: a SIGTERM during start-up is honoured once the start is done.
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ component: 'bot', signal }, `${signal}: finishing running work, then stopping`);
  if (running) stopAndExit(running);
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
try {
  running = await startBotAlone(env, { logger });
  if (stopping) stopAndExit(running);
} catch (error) {
  logger.fatal({ component: 'bot' }, `could not start: ${(error as Error).message}`);
  process.exit(1);
}
