import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, mediaCache, usageLedger } from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';
/** How a link's host behaves now: serves, deleted the file, refuses HEAD (serves GET), or never answers. */
type HostMode = 'serve' | 'gone' | 'no-head' | 'hang';

/**
 * A user's file host whose links the test can delete (404), make refuse HEAD with 405 (as some
 * object stores do) or make hang; it records every request as `METHOD range` per path.
 */
async function fileHost(bytes: Buffer) {
  const modes = new Map<string, HostMode>();
  const requests = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    requests.set(path, [...(requests.get(path) ?? []), `${req.method} ${req.headers.range ?? '-'}`]);
    const mode = modes.get(path) ?? 'serve';
    if (mode === 'hang') return;
    if (mode === 'gone') return void res.writeHead(404).end('no such file');
    if (mode === 'no-head' && req.method === 'HEAD') return void res.writeHead(405).end();
    if (req.headers.range === 'bytes=0-0') {
      return void res.writeHead(206, { 'content-range': `bytes 0-0/${bytes.length}`, 'content-length': 1 }).end(bytes.subarray(0, 1));
    }
    res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'audio/wav' }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    link: (path: string) => `${base}${path}`,
    set: (path: string, mode: HostMode) => void modes.set(path, mode),
    /** Requests to `path` so far, e.g. `['GET -', 'HEAD -', 'GET bytes=0-0']`. */
    seen: (path: string) => requests.get(path) ?? [],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A prediction's log lines without their times (`<ISO time> <line>`). */
const lines = (logs: unknown) =>
  String(logs)
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^\S+ /, ''));
/** Whatever in a prediction's logs would tell its user the recording was stored, or that someone else sent it. */
const REVEALING = /cache|same link|stored|another user|someone|earlier|first request/i;

describe.each(['pglite', 'postgres'] as const)("another user's repeat of a link on %s (spec 2.6)", (kind) => {
  let t: TestService;
  let host: Awaited<ReturnType<typeof fileHost>>;
  let userB: string;

  const run = async (path: string, key: string) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: host.link(path) } }),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string };
    return pollPrediction(t.replicateBase, key, created.id);
  };
  const charge = async (predictionId: unknown) => {
    const [row] = await t.service.ctx.database.db
      .select()
      .from(usageLedger)
      .where(eq(usageLedger.predictionId, String(predictionId)));
    return row;
  };
  /** User A's first request: downloaded, recognised and stored; the host has seen exactly one download. */
  const fetchedByA = async (path: string) => {
    const first = await run(path, t.key);
    expect(first.status, String(first.error)).toBe('succeeded');
    expect(String(first.logs)).toMatch(/downloaded \d+ bytes/);
    expect(host.seen(path)).toEqual(['GET -']);
    return first;
  };

  beforeAll(async () => {
    t = await startTestService(kind, {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      PRICE_PER_MINUTE: '1',
      WORKER_CONCURRENCY: '2',
      LINK_PROBE_TIMEOUT_MS: '3000',
      DOWNLOAD_TIMEOUT_MS: '10000',
    });
    host = await fileHost(await readFile(join(AUDIO_DIR, CLIP)));
    userB = (await createApiKey(t.service.ctx.database.db, 'user b')).secret;
  });

  afterAll(async () => {
    await host?.close();
    await t?.stop();
  });

  it('should fail like a fresh download, saying nothing of the cache, when the link A fetched is deleted before B sends it', async () => {
    await fetchedByA('/deleted.wav');
    host.set('/deleted.wav', 'gone');
    host.set('/never-sent.wav', 'gone');
    const fresh = await run('/never-sent.wav', userB); // what B gets for a deleted file nobody sent before
    expect(fresh.status).toBe('failed');

    const taken = await run('/deleted.wav', userB);
    expect(taken.status).toBe('failed');
    expect(taken.error).toBe('The link answered HTTP 404 Not Found.');
    expect(taken.error).toBe(fresh.error);
    expect(taken.error_code).toBe(fresh.error_code);
    expect(String(taken.logs)).not.toMatch(REVEALING);
    expect(lines(taken.logs)).toEqual(lines(fresh.logs)); // the same lines as a fresh download's, times aside
    expect(lines(taken.logs)).toEqual(['failed: The link answered HTTP 404 Not Found.']);
    expect((taken.metrics as { audio_duration?: number } | undefined)?.audio_duration).toBeUndefined();
    expect(await charge(taken.id)).toBeUndefined();
    // The link was checked (HEAD, then the ranged GET), then downloaded as if nothing were stored.
    expect(host.seen('/deleted.wav')).toEqual(['GET -', 'HEAD -', 'GET bytes=0-0', 'GET -']);
    // The stored copy stays A's.
    const [stored] = await t.service.ctx.database.db
      .select()
      .from(mediaCache)
      .where(eq(mediaCache.link, host.link('/deleted.wav')));
    expect(stored).toBeDefined();
  });

  it('should give B the stored transcript while the link still answers, charged by 2.6.2, with logs that reveal no other user', async () => {
    const first = await fetchedByA('/alive.wav');
    const taken = await run('/alive.wav', userB);
    expect(taken.status, String(taken.error)).toBe('succeeded');
    expect(taken.output).toEqual(first.output);
    expect(String(taken.logs)).not.toMatch(REVEALING);
    expect(host.seen('/alive.wav')).toEqual(['GET -', 'HEAD -']); // one check, no second download
    expect(lines(taken.logs)).toEqual(['succeeded']); // nothing between the start and the end says where it came from
    const paid = await charge(first.id);
    const row = await charge(taken.id);
    expect(row?.mediaId).toBe(paid?.mediaId);
    expect(row?.reason).toBe('cached_transcript'); // B has not paid for this file (2.6.2)
    const again = await run('/alive.wav', userB);
    expect((await charge(again.id))?.reason).toBe('free_repeat'); // now B has
    expect(lines(again.logs)).toEqual(['succeeded']);
    // B never fetched it: once the file is deleted, B's repeat is not served from the cache either.
    host.set('/alive.wav', 'gone');
    const afterDeletion = await run('/alive.wav', userB);
    expect(afterDeletion.status).toBe('failed');
    expect(afterDeletion.error).toBe('The link answered HTTP 404 Not Found.');
    expect(String(afterDeletion.logs)).not.toMatch(REVEALING);
  });

  it("should serve A's own repeat from the cache after the file is deleted, without checking the link", async () => {
    const first = await fetchedByA('/own.wav');
    host.set('/own.wav', 'gone');
    const repeat = await run('/own.wav', t.key);
    expect(repeat.status, String(repeat.error)).toBe('succeeded');
    expect(repeat.output).toEqual(first.output);
    expect(String(repeat.logs)).toContain('recording taken from the cache (same link)');
    expect(String(repeat.logs)).toContain('transcript taken from the cache');
    expect(host.seen('/own.wav')).toEqual(['GET -']);
    expect((await charge(repeat.id))?.reason).toBe('free_repeat');
  });

  it('should count every key of one owner as one user (a reissued bot or portal key keeps its cache)', async () => {
    const db = t.service.ctx.database.db;
    const oldKey = (await createApiKey(db, 'bot key', 'telegram:4242')).secret;
    const newKey = (await createApiKey(db, 'bot key, reissued', 'telegram:4242')).secret;
    const first = await run('/owner.wav', oldKey);
    expect(first.status, String(first.error)).toBe('succeeded');
    host.set('/owner.wav', 'gone');
    const repeat = await run('/owner.wav', newKey);
    expect(repeat.status, String(repeat.error)).toBe('succeeded');
    expect(String(repeat.logs)).toContain('transcript taken from the cache');
    expect(host.seen('/owner.wav')).toEqual(['GET -']);
  });

  it('should judge a host that refuses HEAD (405) but serves a one-byte ranged GET alive', async () => {
    host.set('/no-head.wav', 'no-head');
    const first = await fetchedByA('/no-head.wav');
    const taken = await run('/no-head.wav', userB);
    expect(taken.status, String(taken.error)).toBe('succeeded');
    expect(taken.output).toEqual(first.output);
    expect(String(taken.logs)).not.toMatch(REVEALING);
    expect(host.seen('/no-head.wav')).toEqual(['GET -', 'HEAD -', 'GET bytes=0-0']);
  });

  it('should judge a host that hangs not alive within LINK_PROBE_TIMEOUT_MS, then fail as a download to it would', async () => {
    await fetchedByA('/hangs.wav');
    host.set('/hangs.wav', 'hang');
    const taken = await run('/hangs.wav', userB);
    expect(taken.status).toBe('failed');
    expect(taken.error).toBe('The link did not finish downloading within 10 s.');
    expect(String(taken.logs)).not.toMatch(REVEALING);
    // The check gave up by itself (its HEAD unanswered, no time left for the GET), and the download was tried after it.
    expect(host.seen('/hangs.wav')).toEqual(['GET -', 'HEAD -', 'GET -']);
  });
});
