import { pino, type DestinationStream, type Logger } from 'pino';

/** Where secrets could hide in a log object: they are replaced by `[redacted]` wherever they appear. */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.authentication',
  'req.headers["x-api-key"]',
  'apiKey',
  'secret',
  'key',
  'token',
  'webhook_secret',
  'llm_api_key',
  'signature',
];

export interface ServiceLoggerOptions {
  /** LOG_LEVEL: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. */
  level: string;
  /** Where the JSON lines go (tests pass a stream); default stdout, pretty-printed on a TTY. */
  destination?: DestinationStream;
}

/**
 * pino-pretty's options for a terminal: the time of day, and a headline that names a request line's
 * method, path and status, and an error answer's code and reason, before its `msg`
 * (`WARN: POST /v1/audio/transcriptions 404 request completed (model_not_found: The model "x" does not exist here;)`);
 * other lines show their `msg` alone. The template language is pino-pretty's `messageFormat`
 * (`{key}`, `{if key}…{end}`; its README, "Options").
 */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss.l',
  messageFormat: '{if req.method}{req.method} {req.path} {res.status} {end}{msg}{if error_code} ({error_code}: {reason}){end}',
} as const;

/**
 * The service's structured logger (pino): one JSON object per line with `level`, `time` and `msg`,
 * at LOG_LEVEL, with secret-looking fields redacted. On a terminal (and without a destination) the
 * lines are pretty-printed through pino-pretty when it is installed (a dev dependency); otherwise
 * they stay JSON, as a log collector wants them.
 * @example
 * const logger = createServiceLogger({ level: 'info' });
 * logger.info({ prediction: 'p8x2k', stage: 'decoded' }, 'decoded 11.0 s of audio (wav)');
 */
export function createServiceLogger(options: ServiceLoggerOptions): Logger {
  const base = { level: options.level, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (options.destination) return pino(base, options.destination);
  if (process.stdout.isTTY && canPrettyPrint()) return pino({ ...base, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } });
  return pino(base);
}

function canPrettyPrint(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
