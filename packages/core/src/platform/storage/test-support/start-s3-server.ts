/**
 * A local HTTP server speaking the subset of the S3 REST protocol the media store uses, path style
 * (`/{bucket}/{key}`): PutObject (PUT), GetObject (GET), HeadObject (HEAD), DeleteObject (DELETE),
 * with S3's XML error bodies. Driven in tests by the real `@aws-sdk/client-s3` client. Objects live
 * in memory. Requests must carry a SigV4 `Authorization` header for the configured access key
 * (else 403 InvalidAccessKeyId; the signature itself is not recomputed); unknown buckets get 404
 * NoSuchBucket. Every request is recorded, and scripts can answer any of them with an error status
 * (and headers such as Retry-After), leave it unanswered, or cut a GetObject body short.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedS3Request {
  method: string;
  bucket: string;
  key: string;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the request body. */
  bodyBytes: number;
}

export interface S3Server {
  /** e.g. `http://127.0.0.1:40123`, the client's `endpoint` (with forcePathStyle). */
  endpoint: string;
  /** Stored objects by `bucket/key`. */
  objects: Map<string, Buffer>;
  requests: RecordedS3Request[];
  /**
   * Answer matching requests with this status instead (e.g. 503 once), or with a status and headers
   * (e.g. `{ status: 503, headers: { 'retry-after': '60' } }`); return null to serve normally.
   */
  failWith: ((request: RecordedS3Request) => number | { status: number; headers: Record<string, string> } | null) | null;
  /** Never answer matching requests (the connection stays open until the client gives up or the server closes). */
  stall: ((request: RecordedS3Request) => boolean) | null;
  /** Answer a matching GetObject with its full Content-Length but close the connection after this many body bytes; null to serve it whole. */
  cutBodyAfter: ((request: RecordedS3Request) => number | null) | null;
  close(): Promise<void>;
}

function xmlError(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>local</RequestId></Error>`;
}

const ERROR_CODES: Record<number, string> = { 403: 'InvalidAccessKeyId', 404: 'NoSuchKey', 500: 'InternalError', 503: 'SlowDown' };

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts)));
    request.on('error', reject);
  });
}

/** Starts the server on 127.0.0.1 (a free port) with the given buckets and access key. */
export async function startS3Server(options: { buckets: string[]; accessKeyId: string }): Promise<S3Server> {
  const state: S3Server = {
    endpoint: '',
    objects: new Map(),
    requests: [],
    failWith: null,
    stall: null,
    cutBodyAfter: null,
    close: async () => {},
  };
  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://s3.local').pathname);
    const [, bucket = '', ...rest] = path.split('/');
    const key = rest.join('/');
    const body = await readBody(request);
    const record: RecordedS3Request = { method: request.method ?? '', bucket, key, headers: request.headers, bodyBytes: body.length };
    state.requests.push(record);
    const fail = (status: number, code = ERROR_CODES[status] ?? 'Error', message = code, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/xml', ...headers });
      response.end(request.method === 'HEAD' ? undefined : xmlError(code, message));
    };
    if (state.stall?.(record) === true) return;
    const scripted = state.failWith?.(record) ?? null;
    if (typeof scripted === 'number') return fail(scripted);
    if (scripted !== null) return fail(scripted.status, undefined, undefined, scripted.headers);
    if (!String(request.headers.authorization ?? '').startsWith(`AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/`)) {
      return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    }
    if (!options.buckets.includes(bucket)) return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (key === '') return fail(400, 'InvalidRequest', 'Bucket operations are not supported by this server');
    if (request.headers['content-encoding']?.includes('aws-chunked'))
      return fail(400, 'NotImplemented', 'aws-chunked uploads are not supported');
    const id = `${bucket}/${key}`;
    const stored = state.objects.get(id);
    if (request.method === 'PUT') {
      state.objects.set(id, body);
      return response.writeHead(200, { etag: `"${body.length}"` }).end();
    }
    if (request.method === 'DELETE') {
      state.objects.delete(id);
      return response.writeHead(204).end();
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return fail(405, 'MethodNotAllowed', 'Method not allowed');
    if (!stored) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
    response.writeHead(200, {
      'content-length': stored.length,
      'content-type': 'application/octet-stream',
      etag: `"${stored.length}"`,
      'last-modified': new Date().toUTCString(),
    });
    if (request.method === 'HEAD') return response.end();
    const cutAfter = state.cutBodyAfter?.(record) ?? null;
    if (cutAfter === null) return response.end(stored);
    response.write(stored.subarray(0, cutAfter), () => response.socket?.destroy());
  };
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        response.writeHead(500, { 'content-type': 'application/xml' }).end(xmlError('InternalError', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
