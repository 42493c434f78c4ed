import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { logRequests } from './log-requests.ts';
import { logUnexpectedError } from './log-unexpected-error.ts';

/** A logger at `level` whose JSON lines are collected in `lines`. */
function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, destination), lines };
}

describe('logRequests and logUnexpectedError', () => {
  let server: Server | null = null;

  afterEach(async () => {
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    server = null;
  });

  /** Serves `/ok` (200) and `/boom` (a thrown error, answered 500 by an error handler that logs it). */
  async function serve(level: string) {
    const log = captured(level);
    const app = express();
    app.use(logRequests(log.logger));
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    app.get('/boom', () => {
      throw new TypeError('no such property');
    });
    app.use(((error, _req, res, _next) => {
      logUnexpectedError(res, 'http', error);
      res.status(500).end();
    }) as express.ErrorRequestHandler);
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server!.once('listening', done));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines: log.lines };
  }

  it('should log each request and a 500 with its stack and request id', async () => {
    const { url, lines } = await serve('info');
    expect((await fetch(`${url}/ok`, { headers: { 'x-request-id': 'trace-1' } })).headers.get('x-request-id')).toBe('trace-1');
    const failed = await fetch(`${url}/boom`);
    expect(failed.status).toBe(500);
    const id = failed.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const unexpected = lines.find((line) => line.msg === 'unexpected error: no such property');
    expect(unexpected).toMatchObject({ level: 50, component: 'http', req_id: id, err: { type: 'TypeError', message: 'no such property' } });
    expect(String((unexpected!.err as { stack: string }).stack)).toContain('log-requests.test.ts');
    expect(lines.filter((line) => line.msg === 'request completed').map((line) => (line.res as { status: number }).status)).toEqual([200]);
  });

  it('should still answer X-Request-Id, and write nothing, with LOG_LEVEL silent', async () => {
    const { url, lines } = await serve('silent');
    expect((await fetch(`${url}/ok`, { headers: { 'x-request-id': 'trace-2' } })).headers.get('x-request-id')).toBe('trace-2');
    expect((await fetch(`${url}/ok`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${url}/ok`, { headers: { 'x-request-id': 'not an id!' } })).headers.get('x-request-id')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    expect(lines).toEqual([]);
  });
});
