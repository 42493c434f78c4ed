import { request } from 'node:http';

/** Answer of a streamed upload. */
export interface StreamedAnswer {
  status: number;
  contentType: string;
  body: unknown;
  /** Bytes of the body the client had handed to the socket when the answer arrived. */
  sentWhenAnswered: number;
  /** Bytes of the body the client sent in all. */
  sentTotal: number;
}

/** `bytes` zero bytes in chunks of `chunkBytes` (one shared buffer, so memory stays flat). */
export async function* zeros(bytes: number, chunkBytes = 1024 * 1024): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(chunkBytes);
  for (let left = bytes; left > 0; left -= chunkBytes) yield left >= chunkBytes ? chunk : chunk.subarray(0, left);
}

/** A multipart body: the given text parts, then one file part of `file` bytes under `fileField`. */
export async function* multipartBody(
  boundary: string,
  fields: [string, string][],
  fileField: string,
  file: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  for (const [name, value] of fields) {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  yield Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="big.wav"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  yield* file;
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

/**
 * POSTs a body produced chunk by chunk (chunked transfer encoding unless a Content-Length header is
 * given) with backpressure, and resolves with the answer as soon as it arrives, even while the body
 * is still being sent. After the answer the rest of the body is still offered (as a client would)
 * unless `stopAfterAnswer`; write errors after the answer are ignored.
 */
export function postStream(
  url: string,
  headers: Record<string, string>,
  body: AsyncIterable<Buffer>,
  options: { stopAfterAnswer?: boolean } = {},
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(url, { method: 'POST', headers });
    req.on('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // left as text
        }
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: parsed,
          sentWhenAnswered,
          sentTotal: sent,
        });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for await (const chunk of body) {
        if (answered && options.stopAfterAnswer) break;
        if (req.destroyed) break;
        sent += chunk.length;
        if (!req.write(chunk)) await drained(req);
      }
      if (!req.destroyed) req.end();
    })().catch(reject);
  });
}

function drained(req: ReturnType<typeof request>): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      req.off('drain', finish);
      req.off('close', finish);
      done();
    };
    req.on('drain', finish);
    req.on('close', finish);
  });
}

/** Samples the process RSS every `intervalMs` until stopped; returns the peak growth over the start, in bytes. */
export function watchRss(intervalMs = 20): { stop(): number } {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage.rss());
      return peak - start;
    },
  };
}
