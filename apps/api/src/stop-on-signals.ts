import type { StopReason } from '@transcribe/core';
import type { Logger } from 'pino';

/** What an entry point hands over once its service has started. */
export interface SignalStop {
  /**
   * Call once the service has started, with the function that stops it. A signal that arrived while
   * it was starting is honoured now (its port may already have answered: killing it mid-start would
   * leave half-made state).
   */
  started(stop: (reason: StopReason) => Promise<void>): void;
}

/**
 * Installs the SIGTERM / SIGINT handlers of an entry point (`npm start`, `npm run worker`,
 * `npm run bot`): at the first signal it logs `SIGTERM: finishing running work, then stopping`
 * (info), runs the stop with the signal as its reason (named in the words logged for a run
 * interrupted at SHUTDOWN_TIMEOUT_MS), and writes one last line before the process exits:
 * - `stopped (SIGTERM) after 1.2 s` at info, fields `signal`, `seconds`, `exit_code: 0`, then exit 0;
 * - `stopped (SIGTERM) after 1.2 s: the stop failed: <message>` at error, with `err` (the error as
 *   pino serializes it: type, message, stack) and `exit_code: 1`, then exit 1.
 * A stop is an expected event: nothing about a normal SIGTERM is logged at error level. Further
 * signals while stopping are ignored (the deadline bounds the stop).
 * @param component the lines' `component`: `service`, `worker` or `bot`.
 * @param options.whileStarting called with the signal's name when it arrives before `started`, for
 *   an entry point that can call its start off (the bot's tries of the Bot API); without it the
 *   signal waits for the start to finish.
 * @param options.exit ends the process (tests pass their own); default `process.exit`.
 */
export function stopOnSignals(
  logger: Logger,
  component: string,
  options: { whileStarting?: (signal: string) => void; exit?: (code: number) => void } = {},
): SignalStop {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stop: ((reason: StopReason) => Promise<void>) | null = null;
  let signal: string | null = null;
  const run = (stopService: (reason: StopReason) => Promise<void>, name: string) => {
    const began = performance.now();
    const seconds = () => Math.round(performance.now() - began) / 1000;
    stopService({ signal: name }).then(
      () => {
        logger.info({ component, signal: name, seconds: seconds(), exit_code: 0 }, `stopped (${name}) after ${seconds()} s`);
        exit(0);
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        logger.error(
          { component, signal: name, seconds: seconds(), exit_code: 1, err: error },
          `stopped (${name}) after ${seconds()} s: the stop failed: ${message}`,
        );
        exit(1);
      },
    );
  };
  const onSignal = (name: string) => {
    if (signal !== null) return;
    signal = name;
    logger.info({ component, signal: name }, `${name}: finishing running work, then stopping`);
    if (stop) run(stop, name);
    else options.whileStarting?.(name);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    started(stopService) {
      stop = stopService;
      if (signal !== null) run(stopService, signal);
    },
  };
}
