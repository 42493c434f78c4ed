import { createCli, runCli } from '../../api/src/cli/create-cli.ts';
import { parseEnv } from '../../api/src/env.ts';
import { logStrayRejections } from '../../api/src/log-stray-rejections.ts';
import { createServiceLogger } from '../../api/src/logging/create-service-logger.ts';
import { stopOnSignals } from '../../api/src/stop-on-signals.ts';
import { startBotAlone } from './start-bot-alone.ts';

/**
 * `npm run bot`: the Telegram bot alone with the core, no HTTP API (start-bot-alone.ts). Settings
 * come from the environment (README, "Configuration"); exits 1 when it cannot start, e.g. when the
 * Bot API cannot be reached within BOT_START_ATTEMPTS tries (each failed try is logged with its
 * cause). SIGTERM and SIGINT stop the bot, let running work end, log `stopped`, then exit 0
 * (api/src/stop-on-signals.ts); during the start they call it off at once (a Bot API call that hangs
 * or is retried too) and exit 0. Everything it says goes through one structured logger (LOG_LEVEL,
 * default info; component `bot`). `--help` prints the usage; any argument is a usage mistake
 * (exit 2), as in every CLI of the service (api/src/cli/create-cli.ts).
 */
async function runBot(): Promise<void> {
  const env = parseEnv();
  const logger = createServiceLogger({ level: env.LOG_LEVEL ?? 'info' });
  logStrayRejections('bot', logger); // a database outage must not end the process
  // Installed before the start: a signal during start-up calls the start off (startBotAlone then
  // stops the core it opened); one while the core itself opens is honoured once that is done.
  const starting = new AbortController();
  const signals = stopOnSignals(logger, 'bot', {
    whileStarting: (signal) => starting.abort(new Error(`${signal} arrived while the bot was starting`)),
  });
  try {
    const running = await startBotAlone(env, { logger, signal: starting.signal });
    signals.started((reason) => running.stop(reason));
  } catch (error) {
    if (starting.signal.aborted) {
      logger.info({ component: 'bot' }, `stopped before the bot started: ${(starting.signal.reason as Error).message}`);
      process.exit(0);
    }
    logger.fatal({ component: 'bot' }, `could not start: ${(error as Error).message}`);
    process.exit(1);
  }
}

const program = createCli(
  'bot',
  'The Telegram bot alone, without the HTTP API: long polling, or a webhook server on PORT with BOT_WEBHOOK_URL. ' +
    'Needs TELEGRAM_BOT_TOKEN; other settings come from the environment (README, "Configuration"; docs/bot.md). ' +
    '`npm start` runs the bot too when TELEGRAM_BOT_TOKEN is set.',
);
program.action(runBot);
await runCli(program);
