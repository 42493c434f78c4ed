import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

/** An incoming `X-Request-Id` is kept when it looks like an id (a proxy's), else a new UUID is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the incoming `X-Request-Id` when it looks like one, else a new UUID; also set on the answer. */
function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * What `res.locals` carries for the request's logging: the authenticated key and the prediction
 * concerned (set by the routes), and `requestLog` (set here).
 */
export interface RequestLocals {
  apiKey?: { id: string };
  predictionId?: string;
  /** The request's id (`req_id`, the `X-Request-Id` answered). */
  requestId?: string;
  /** The service's logger, from which logUnexpectedError makes the request's child (with `req_id`) when it needs one. */
  requestLogger?: Logger;
  /** The error answered (noteAnsweredError): its code and a short reason, for the request log line. */
  answeredError?: { code: string; reason: string };
}

/** Longest `reason` a request line carries, characters: the first sentence of the detail, cut here. */
const REASON_MAX_CHARS = 120;

/**
 * Remembers the error a request is answered with, so its log line carries `error_code` and `reason`
 * (the answer's first sentence, at most REASON_MAX_CHARS characters): an operator sees why a client
 * got a 4xx without the client's help. Called by the two places that write error bodies
 * (http/map-error.ts sendProblem, openai/send-openai-error.ts sendOpenAiError).
 * @param code the machine-readable code the answer carries (`invalid_input`, `model_not_found`, …).
 * @param detail the answer's text, meant for the client (never a secret: it is sent to the caller).
 */
export function noteAnsweredError(res: Response, code: string, detail: string): void {
  const sentence = /^.*?[.;](?=\s|$)/.exec(detail)?.[0] ?? detail;
  const reason = sentence.length > REASON_MAX_CHARS ? `${sentence.slice(0, REASON_MAX_CHARS - 1)}…` : sentence;
  (res.locals as RequestLocals).answeredError = { code, reason };
}

/**
 * One structured line per HTTP request, written when the answer is sent (or the connection closed
 * before): the request id `req_id` (also returned as `X-Request-Id`), `req.method`, `req.path`
 * (never the query: a signed text link's signature lives there), `res.status`, latency in whole ms
 * (`ms`), the API key's id `key_id` (never the key) and the prediction's id `prediction` when the
 * request concerns one. `msg` is `request completed`, `request errored` (5xx) or `request aborted`
 * (closed before the answer ended); level info, warn for 4xx and aborts, error for 5xx. An error
 * answer's line also carries `error_code` and `reason` (noteAnsweredError). Headers
 * and bodies are never logged. Also sets `res.locals.requestId` and `res.locals.requestLogger`, from
 * which logUnexpectedError makes a child logger carrying `req_id` when it needs one: most requests
 * never do. (A property defined on `req` itself slowed every later read of `req` in express, about
 * a third of a poll's throughput: the request object's shape must stay as Node made it.)
 *
 * Why not pino-http: it made one child logger and ran its serializers and the redaction pass for
 * every request, which cost about half the throughput of a poll (bench/results/api-throughput.md);
 * this line is built field by field from values that cannot hold a secret, so it is written through
 * a child without redaction, and the per-request cost is one object, one listener and one write.
 *
 * A logger that would write none of these lines (LOG_LEVEL `silent` or `fatal`) gets only the
 * `X-Request-Id` header.
 * @example
 * app.use(logRequests(logger));
 * // {"level":30,"time":…,"req_id":"5f0c…","req":{"method":"GET","path":"/v1/replicate/v1/predictions/p8x2k"},"res":{"status":200},"key_id":"key_1a2b","prediction":"p8x2k","ms":3,"msg":"request completed"}
 */
export function logRequests(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('error')) {
    return (req, res, next) => {
      assignRequestId(req, res);
      next();
    };
  }
  const lines = logger.child({}, { redact: [] }); // see "Why not pino-http" above
  return (req, res, next) => {
    const started = performance.now();
    const id = assignRequestId(req, res);
    const locals = res.locals as RequestLocals;
    locals.requestId = id;
    locals.requestLogger = logger;
    // 'close' comes once per answer, after 'finish' when the answer was sent whole, alone when the
    // connection went first: one listener tells both apart.
    res.once('close', () => {
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const line = {
        req_id: id,
        req: { method: req.method, path: pathOf(req) },
        res: { status },
        key_id: locals.apiKey?.id,
        prediction: locals.predictionId,
        ms: Math.round(performance.now() - started),
        error_code: locals.answeredError?.code,
        reason: locals.answeredError?.reason,
      };
      if (aborted) lines.warn(line, 'request aborted');
      else if (status >= 500) lines.error(line, 'request errored');
      else if (status >= 400) lines.warn(line, 'request completed');
      else lines.info(line, 'request completed');
    });
    next();
  };
}

/** The request's path as the client sent it, without the query. */
function pathOf(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
