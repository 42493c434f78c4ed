import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, normalize } from 'node:path';

export interface FileServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

/** Serves files of `root` over plain HTTP on loopback, like a user's file host. Unknown paths → 404. */
export async function serveFiles(root: string): Promise<FileServer> {
  const server: Server = createServer(async (req, res) => {
    const path = join(root, normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    try {
      const info = await stat(path);
      res.writeHead(200, { 'content-length': info.size, 'content-type': 'application/octet-stream' });
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
