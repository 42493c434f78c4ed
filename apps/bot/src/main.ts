import { parseEnv } from '../../api/src/env.ts';
import { logStrayRejections } from '../../api/src/log-stray-rejections.ts';
import { startBotAlone, type RunningBotAlone } from './start-bot-alone.ts';

/**
 * `npm run bot`: the Telegram bot alone with the core, no HTTP API (start-bot-alone.ts). Settings
 * come from the environment (README, "Configuration"); exits 1 when it cannot start. SIGTERM and
 * SIGINT stop the bot, let running work end, then exit 0.
 */
const env = parseEnv();
logStrayRejections('bot'); // a database outage must not end the process
let running: RunningBotAlone | null = null;
let stopping = false;

/** Stops the started bot and core, then exits (0, or 1 when the stop fails). */
function stopAndExit(bot: RunningBotAlone): void {
  bot.stop().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`[bot] stop failed: ${error.message}`);
      process.exit(1);
    },
  );
}

// Installed before the start: a SIGTERM during start-up is honoured once the start is done.
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  if (running) stopAndExit(running);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
try {
  running = await startBotAlone(env);
  if (stopping) stopAndExit(running);
} catch (error) {
  console.error(`[bot] could not start: ${(error as Error).message}`);
  process.exit(1);
}
