/**
 * The one coded error of the service. Every failure a user can meet is an AppError whose `code`
 * says what happened; each app maps codes to its own surface in one place
 * (apps/api/src/http/map-error.ts for HTTP statuses).
 *
 * "Upstream refused" (the other side answered with an error) is kept apart from
 * "upstream unreachable" (no answer at all), as in openai-node.
 */
export type AppErrorCode =
  | 'invalid_input' // a request parameter breaks a rule of spec 2.2 / 4.5 (HTTP 422)
  | 'unauthenticated' // missing or unknown API key (HTTP 401)
  | 'not_found' // no such resource for this key (HTTP 404)
  | 'link_not_valid' // a signed link (txt_file_url) that is altered, expired, or whose key was revoked (HTTP 403)
  | 'payload_too_large' // upload over the 300 MiB limit of spec 8 (HTTP 413)
  | 'unsupported_media_type' // request body type the endpoint does not take (HTTP 415)
  | 'rate_limited' // too many requests (HTTP 429)
  | 'media_too_large' // the linked or embedded recording is over the size limit
  | 'media_unreadable' // not a media file, or damaged
  | 'media_no_audio' // a media file without an audio stream
  | 'upstream_refused' // the link's server answered with an error status
  | 'upstream_unreachable' // the link's server could not be reached or timed out
  | 'address_not_allowed' // link resolves to a private / loopback / link-local address
  | 'recognition_failed' // the recognition engine failed (or the remote recognition server answered an error)
  | 'recognition_unreachable' // the remote recognition server could not be reached or timed out
  | 'engine_unavailable' // the configured engine or its model files are missing
  | 'post_processing_failed' // a post-processing type failed at the language model (spec 3: the prediction fails)
  | 'cache_changed' // spec 7: a concurrent request changed the stored transcript parameters
  | 'service_busy' // the queue refused more work (HTTP 503)
  | 'conflict' // the request clashes with what is stored: a name already taken, a full voice registry (HTTP 409)
  | 'internal'; // a bug: never shown with details

export interface AppErrorOptions {
  /** The underlying error, kept for logs; never shown to users. */
  cause?: unknown;
  /** The input parameter concerned, e.g. `audio` or `post_process`. */
  param?: string;
}

/**
 * A failure with a machine-readable `code` (AppErrorCode) and a message meant for the user; `param`
 * names the input concerned, `cause` keeps the underlying error for the logs only.
 * @example throw new AppError('invalid_input', 'custom_prompt is required when post_process contains custom.', { param: 'custom_prompt' });
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly param: string | undefined;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.param = options.param;
  }
}

/** True when `error` is an AppError, optionally with the given code. */
export function isAppError(error: unknown, code?: AppErrorCode): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}
