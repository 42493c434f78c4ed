import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

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
 * One structured line per HTTP request (pino-http), written when the answer is sent: the request id
 * (also returned as `X-Request-Id`), method, path (never the query: a signed text link's signature
 * lives there), status, latency in ms (`ms`), the API key's id (never the key) and the
 * prediction's id when the request concerns one. Headers and bodies are never logged.
 * A logger that would write none of these lines (LOG_LEVEL `silent` or `fatal`) gets no pino-http
 * at all, only the `X-Request-Id` answer header: nothing is spent per request on lines nobody reads
 * (bench/api-throughput.ts measures the request log against this).
 * @example
 * app.use(logRequests(logger));
 * // {"level":30,"req_id":"5f0c…","req":{"method":"GET","path":"/v1/replicate/v1/predictions/p8x2k"},"res":{"status":200},"key_id":"key_1a2b","prediction":"p8x2k","ms":3,"msg":"request completed"}
 */
export function logRequests(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('error')) {
    return (req, res, next) => {
      assignRequestId(req, res);
      next();
    };
  }
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'req_id', responseTime: 'ms' },
    wrapSerializers: false,
    serializers: {
      req: (req: { method: string; url: string; originalUrl?: string }) => ({ method: req.method, path: (req.originalUrl ?? req.url).split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: (error: Error) => ({ type: error.name, message: error.message, stack: error.stack }), // a 500's stack is what finds the bug
    },
    customProps(_req, res) {
      const locals = (res as unknown as { locals?: { apiKey?: { id: string }; predictionId?: string } }).locals;
      return { key_id: locals?.apiKey?.id, prediction: locals?.predictionId };
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
  }) as unknown as RequestHandler;
}
