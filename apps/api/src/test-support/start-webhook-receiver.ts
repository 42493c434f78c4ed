import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReceivedWebhook {
  /** Request path, e.g. `/hook/flaky`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body as received. */
  body: string;
  /** Arrival time in ms (Date.now()). */
  at: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT` */
  url: string;
  received: ReceivedWebhook[];
  /** Answers for a path, used in order; once used up the path answers 200. A 3xx redirects to `/redirect-target`. */
  script(path: string, statuses: number[]): void;
  /** Deliveries to `path`, oldest first. */
  on(path: string): ReceivedWebhook[];
  /** Waits until `predicate` holds for the deliveries to `path` (polls every 50 ms). */
  waitFor(path: string, predicate: (got: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback (node:http) that records every POST, like a user's endpoint. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = scripts.get(path)?.shift() ?? 200;
      res.writeHead(status, status >= 300 && status < 400 ? { location: '/redirect-target' } : {}).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  const on = (path: string) => received.filter((entry) => entry.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (path, statuses) => void scripts.set(path, [...statuses]),
    on,
    async waitFor(path, predicate, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(on(path))) {
        if (Date.now() > deadline)
          throw new Error(`webhook receiver: condition on ${path} not met after ${timeoutMs} ms (${on(path).length} deliveries)`);
        await sleep(50);
      }
      return on(path);
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
