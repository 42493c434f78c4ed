import { createServer, type Server } from 'node:http';
import express from 'express';
import { logEvent, type ServiceContext, type StopReason } from '@transcribe/core';
import type { Env } from '../../api/src/env.ts';
import { startService } from '../../api/src/start-service.ts';
import { botOptionsFromEnv } from './bot-options-from-env.ts';
import { startBot } from './start-bot.ts';

export interface RunningBotAlone {
  ctx: ServiceContext;
  /** The bot's @username from getMe. */
  username: string;
  /** Webhook mode: where the webhook server listens, e.g. `http://127.0.0.1:8080`; null in long polling. */
  webhookServerUrl: string | null;
  /**
   * Stops taking updates, ends the bot's jobs, then stops the core (running work ends within
   * SHUTDOWN_TIMEOUT_MS; `reason.signal` is named in the words logged for a run interrupted then).
   */
  stop(reason?: StopReason): Promise<void>;
}

/**
 * `npm run bot`: the Telegram bot alone on the core, without the HTTP API. The core is opened by the
 * API app's startService with `http: false` (the one place the environment becomes a
 * ServiceContext): the database (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL) and its
 * migrations, the job queue, the webhook worker and, when WORKER_CONCURRENCY > 0 (default 2), the
 * transcribe worker in this process. With PGlite this process is the data folder's only owner (it
 * writes DATA_DIR/service.json, so `npm start` refuses the folder meanwhile, and serves the `apikey`
 * and `portal` CLIs' admin routes on a loopback port named there: start-admin-server.ts) and must run the
 * worker; with DATABASE_URL, WORKER_CONCURRENCY=0 leaves the jobs to `npm run worker` processes.
 * Long polling by default; with BOT_WEBHOOK_URL, a server on HOST:PORT takes Telegram's POSTs at
 * that URL's path and answers nothing else (404). Links shown with new keys point at
 * PUBLIC_BASE_URL (where `npm start` serves the API), else `http://localhost:PORT`.
 * The Bot API is tried BOT_START_ATTEMPTS times (default 6, about half a minute), one log line per
 * failed try naming its cause (start-bot.ts); then the start fails and the core is stopped again.
 * @param options.logger the process's structured logger (becomes `ctx.logger`); default one made
 *   by startService at LOG_LEVEL.
 * @param options.signal calls the start off (SIGINT, SIGTERM): a Bot API call that hangs or is
 *   being retried ends at once, the core is stopped, and the start rejects with the signal's reason.
 * @throws BotStartError (start-bot.ts) when the Bot API cannot be reached within the tries or
 *   refuses the token, naming the cause; Error when TELEGRAM_BOT_TOKEN is unset, the data folder
 *   is in use, the engine is missing, or the webhook port cannot be listened on.
 */
export async function startBotAlone(
  env: Env,
  options: { logger?: ServiceContext['logger']; signal?: AbortSignal } = {},
): Promise<RunningBotAlone> {
  if (!env.TELEGRAM_BOT_TOKEN)
    throw new Error('TELEGRAM_BOT_TOKEN is required: `npm run bot` runs the Telegram bot only (get a token from @BotFather).');
  const service = await startService(env, { http: false, ...(options.logger ? { logger: options.logger } : {}) });
  const { ctx } = service;
  ctx.config.apiBaseUrl = `${(env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')}/v1/replicate/v1`;
  let server: Server | null = null;
  try {
    const bot = await startBot(ctx, {
      ...botOptionsFromEnv(env, ctx, env.TELEGRAM_BOT_TOKEN),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (bot.webhookHandler) server = await listen(express().use(bot.webhookHandler), env.PORT, env.HOST);
    const port = server ? (server.address() as { port: number }).port : null;
    const mode = port === null ? 'long polling' : `webhook, listening on ${env.HOST}:${port}`;
    logEvent(ctx, 'info', 'bot', `@${bot.username} running alone (${mode}); no HTTP API in this process; engine ${ctx.engine.name}`);
    return {
      ctx,
      username: bot.username,
      webhookServerUrl: port === null ? null : `http://127.0.0.1:${port}`,
      async stop(reason) {
        const closing = server ? new Promise<void>((done) => server!.close(() => done())) : Promise.resolve();
        server?.closeAllConnections();
        await bot.stop();
        await closing;
        await service.stop(reason);
      },
    };
  } catch (error) {
    server?.close();
    await service.stop();
    throw error;
  }
}

/** Listens on `host:port`. @throws Error naming the port when it is in use or needs privileges. */
function listen(app: express.Express, port: number, host: string): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer(app);
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') fail(new Error(`port ${port} is in use; set PORT to a free port for the bot's webhook`));
      else if (error.code === 'EACCES') fail(new Error(`port ${port} needs privileges this process lacks; set PORT to 1024 or above`));
      else fail(error);
    });
    server.listen(port, host, () => done(server));
  });
}
