/**
 * TEST HELPER: a local stand-in for the release host, speaking real HTTP on loopback: GET and HEAD
 * of `files` by URL path, Range requests (206 with Content-Range, 416 past the end), and on demand
 * 503 answers or a body cut midway (the socket is destroyed after some bytes), so downloads,
 * retries and resumption are tested without the internet. Also a "black hole": a TCP port that
 * accepts connections and never answers (a firewalled host).
 */
import { execFile } from 'node:child_process';
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
  /** The next request's body stops after `bytes` bytes and the connection is destroyed. */
  cutNextAfter(bytes: number): void;
  /** Every GET from now on sends `bytes` bytes, then holds the connection open without sending more. */
  stallAfter(bytes: number | null): void;
  /** GET bodies that are stalled right now (connections held open). */
  stalled(): number;
  close(): Promise<void>;
}

/** Serves `files` (keys like `/asr-models/NAME.tar.bz2`) on 127.0.0.1. */
export async function serveReleaseFiles(files: Map<string, Buffer>): Promise<ReleaseHost> {
  let failures = 0;
  let cutAfter: number | null = null;
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
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= body.length && range) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const part = body.subarray(start);
    const headers = { 'content-length': part.length, 'accept-ranges': 'bytes', etag: '"fixture"' };
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
    if (cutAfter !== null) {
      const bytes = cutAfter;
      cutAfter = null;
      res.write(part.subarray(0, bytes), () => setTimeout(() => res.destroy(), 20));
      return;
    }
    res.end(part);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/asr-models/`,
    requests,
    failNext: (count) => (failures = count),
    cutNextAfter: (bytes) => (cutAfter = bytes),
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
