/**
 * TEST HELPER: a local stand-in for the release host, speaking real HTTP on loopback: GET and HEAD
 * of `files` by URL path (read at each request, so a test can change a file between attempts),
 * validators as a release host sends them (a strong ETag made from the file's SHA-256, and a
 * Last-Modified that changes with it), Range requests honouring If-Range (RFC 9110 13.1.5: a
 * validator that no longer matches gets the whole file, 200), 206 with Content-Range, 416 past
 * the end, and on demand 503 answers or a body cut midway (the socket is destroyed after some
 * bytes), so downloads,
 * retries and resumption are tested without the internet. Also a "black hole": a TCP port that
 * accepts connections and never answers (a firewalled host).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { CatalogModel } from '../model-catalog.ts';
import { writePlaceholderModel } from '../../test-support/write-placeholder-model.ts';

export interface ReleaseHost {
  /** `http://127.0.0.1:PORT/asr-models/`: pass as mirror URL. */
  url: string;
  /** What the server saw: method, path and request headers, in order. */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** The next `count` requests get 503. */
  failNext(count: number): void;
  /**
   * The next GET's body stops after `bytes` bytes and the connection is destroyed; with `until`,
   * only once `until()` is true (polled every 20 ms, at most 60 s), e.g. once the client has the
   * first bytes on disk, so that the cut never depends on how fast a loaded machine is.
   */
  cutNextAfter(bytes: number, until?: () => boolean | Promise<boolean>): void;
  /** Whether answers carry ETag and Last-Modified (default true); false: a host that sends neither. */
  sendValidators(on: boolean): void;
  /** Every GET from now on sends `bytes` bytes, then holds the connection open without sending more. */
  stallAfter(bytes: number | null): void;
  /** GET bodies that are stalled right now (connections held open). */
  stalled(): number;
  close(): Promise<void>;
}

/** Serves `files` (keys like `/asr-models/NAME.tar.bz2`) on 127.0.0.1. */
export async function serveReleaseFiles(files: Map<string, Buffer>): Promise<ReleaseHost> {
  let failures = 0;
  let cut: { bytes: number; until?: () => boolean | Promise<boolean> } | null = null;
  let validators = true;
  const versions = new Map<string, { sha256: string; modified: Date }>();
  /** A strong ETag from the bytes, and a modification time that moves on whenever they change. */
  const validatorsOf = (url: string, body: Buffer) => {
    const sha256 = createHash('sha256').update(body).digest('hex');
    let version = versions.get(url);
    if (version?.sha256 !== sha256) {
      const last = version?.modified.getTime() ?? Date.UTC(2025, 0, 1);
      version = { sha256, modified: new Date(Math.floor(last / 1000) * 1000 + 60_000) };
      versions.set(url, version);
    }
    return { etag: `"${sha256.slice(0, 16)}"`, 'last-modified': version.modified.toUTCString() };
  };
  let stallAt: number | null = null;
  let stalled = 0;
  const requests: ReleaseHost['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    requests.push({ method: req.method ?? '', path: url, headers: req.headers });
    if (failures > 0) {
      failures--;
      res.writeHead(503).end('busy');
      return;
    }
    const body = files.get(url);
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    const current = validatorsOf(url, body);
    const ifRange = req.headers['if-range'];
    const rangeHeld = ifRange === undefined || (validators && (ifRange === current.etag || ifRange === current['last-modified']));
    const range = rangeHeld ? /^bytes=(\d+)-$/.exec(req.headers.range ?? '') : null;
    const start = range ? Number(range[1]) : 0;
    if (start >= body.length && range) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const part = body.subarray(start);
    const headers = { 'content-length': part.length, 'accept-ranges': 'bytes', ...(validators ? current : {}) };
    if (range) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    else res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (stallAt !== null) {
      stalled++;
      res.on('close', () => stalled--);
      res.write(part.subarray(0, stallAt));
      return;
    }
    if (cut !== null) {
      const { bytes, until } = cut;
      cut = null;
      res.write(part.subarray(0, bytes), () => {
        const started = Date.now();
        const poll = async () => {
          if (!until || (await until()) || Date.now() - started > 60_000) res.destroy();
          else setTimeout(() => void poll(), 20);
        };
        setTimeout(() => void poll(), 20);
      });
      return;
    }
    res.end(part);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/asr-models/`,
    requests,
    failNext: (count) => (failures = count),
    cutNextAfter: (bytes, until) => (cut = { bytes, until }),
    sendValidators: (on) => (validators = on),
    stallAfter: (bytes) => (stallAt = bytes),
    stalled: () => stalled,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

/** A loopback TCP port that accepts connections and never sends a byte. @returns its URL and a close function. */
export async function startBlackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/asr-models/`,
    close: () => new Promise<void>((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    }),
  };
}

const FIXTURE_MODELS = fileURLToPath(new URL('../../test-support/models/', import.meta.url));

/**
 * Writes `<parent>/<model.name>/` with the catalog's layout: the random-weight ONNX fixture of
 * test-support/models/ when there is one for the model (it loads and decodes, producing unrelated
 * text), else placeholder files (which fail to load). Either way the self-test fails, as it must
 * for a model that is not a real one.
 * @returns the model folder.
 */
export async function writeFixtureModel(parent: string, model: CatalogModel): Promise<string> {
  const directory = path.join(parent, model.name);
  const fixture = path.join(FIXTURE_MODELS, model.name);
  try {
    await mkdir(parent, { recursive: true });
    await cp(fixture, directory, { recursive: true });
    return directory;
  } catch {
    return writePlaceholderModel(parent, model);
  }
}

/** Packs `<parent>/<folder>` into `archive` (.tar.bz2) with Debian's tar, as the release archives are. */
export async function packTarBz2(parent: string, folder: string, archive: string): Promise<void> {
  await promisify(execFile)('tar', ['-cjf', archive, '-C', parent, folder]);
}
