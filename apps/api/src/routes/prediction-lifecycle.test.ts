import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, createApiKey, predictions } from '@transcribe/core';
import { predictionInputOf } from '@transcribe/core/testing';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface ListPage {
  results: { id: string; created_at: string; status: string }[];
  next: string | null;
  previous: string | null;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function randomId(): string {
  return Array.from({ length: 26 }, () => ALPHABET[Math.floor(Math.random() * 32)]).join('');
}

/** A stored prediction row as the worker leaves it, without running a recognition. */
function storedRow(apiKeyId: string, createdAt: Date, status = 'succeeded') {
  return {
    id: randomId(),
    apiKeyId,
    status,
    input: { audio: 'https://example.com/a.wav' },
    params: predictionInputOf('https://example.com/a.wav', { output_format: 'text' }),
    source: { kind: 'link' as const, url: 'https://example.com/a.wav' },
    output: status === 'succeeded' ? 'hello\n' : null,
    createdAt,
    completedAt: status === 'processing' ? null : createdAt,
  };
}

describe('cancel, list and webhook fields (replicate-compat.md 3, 8; spec 4.2)', () => {
  let t: TestService;
  let hanging: Server;
  let hangingUrl: string;
  const downloads: { closed: boolean }[] = [];
  const auth = (key = t.key) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    t = await startTestService('pglite');
    // A file host that starts a large answer and then stalls: the worker stays in its download.
    hanging = createServer((req, res) => {
      const download = { closed: false };
      downloads.push(download);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(4096));
      req.socket.on('close', () => (download.closed = true));
    });
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/slow.wav`;
  });

  afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise((done) => hanging?.close(done));
    await t?.stop();
  });

  async function createFrom(audio: string, extra: Record<string, unknown> = {}): Promise<{ id: string; status: string }> {
    const response = await fetch(`${t.replicateBase}/v1/predictions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'service/transcribe', input: { audio }, ...extra }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; status: string };
  }

  describe('POST /predictions/{id}/cancel', () => {
    it('should cancel a processing prediction, stop its download and keep it canceled', async () => {
      const { id } = await createFrom(hangingUrl);
      const deadline = Date.now() + 30_000;
      while (downloads.length === 0 && Date.now() < deadline) await sleep(100);
      expect(downloads.length, 'the worker never started the download').toBe(1);
      // The JS client's form: Content-Type application/json with an empty body.
      const response = await fetch(`${t.replicateBase}/v1/predictions/${id}/cancel`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', 'content-length': '0' },
      });
      expect(response.status).toBe(200);
      const canceled = (await response.json()) as { status: string; completed_at: string | null; output: unknown };
      expect(canceled.status).toBe('canceled');
      expect(canceled.completed_at).not.toBeNull();
      while (!downloads[0]?.closed && Date.now() < deadline) await sleep(100);
      expect(downloads[0]?.closed, 'the worker kept downloading after cancel').toBe(true);
      await sleep(1500);
      const later = await pollPrediction(t.replicateBase, t.key, id);
      expect(later.status).toBe('canceled');
      expect(String(later.logs)).toMatch(/canceled/);
      expect(String(later.logs)).not.toMatch(/failed|succeeded/);
    });

    it('should return a finished prediction unchanged with 200, with or without the inner /v1', async () => {
      const [key] = await t.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.label, 'test'));
      const row = storedRow(key?.id ?? '', new Date());
      await t.service.ctx.database.db.insert(predictions).values(row);
      for (const base of [`${t.replicateBase}/v1`, t.replicateBase]) {
        // The Python client's form: no body, no Content-Type.
        const response = await fetch(`${base}/predictions/${row.id}/cancel`, { method: 'POST', headers: auth() });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { status: string; output: unknown };
        expect(body.status).toBe('succeeded');
        expect(body.output).toBe('hello\n');
      }
    });

    it("should answer 404 for an unknown id and for another key's prediction", async () => {
      const { id } = await createFrom('http://127.0.0.1:9/unreachable.wav');
      const other = await createApiKey(t.service.ctx.database.db, 'other');
      for (const [target, key] of [
        [id, other.secret],
        [randomId(), t.key],
      ] as const) {
        const response = await fetch(`${t.replicateBase}/v1/predictions/${target}/cancel`, { method: 'POST', headers: auth(key) });
        expect(response.status).toBe(404);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/No prediction with id/);
      }
      expect((await pollPrediction(t.replicateBase, t.key, id)).status).toBe('failed');
    });
  });

  describe('GET /predictions', () => {
    it('should page through a key’s predictions newest first, 100 per page, with absolute cursors', async () => {
      const db = t.service.ctx.database.db;
      const lister = await createApiKey(db, 'lister');
      const stranger = await createApiKey(db, 'stranger');
      const start = Date.parse('2026-01-01T00:00:00Z');
      // 230 rows, three at a time on the same instant, so the id breaks ties.
      const rows = Array.from({ length: 230 }, (_, index) => storedRow(lister.id, new Date(start + Math.floor(index / 3) * 1000)));
      await db.insert(predictions).values(rows);
      await db.insert(predictions).values(Array.from({ length: 5 }, () => storedRow(stranger.id, new Date(start + 500_000))));
      const expected = [...rows]
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1))
        .map((row) => row.id);

      const pages: ListPage[] = [];
      let url: string | null = `${t.replicateBase}/predictions`; // the raw base, as a JS user may set it
      while (url) {
        const response = await fetch(url, { headers: { ...auth(lister.secret), 'content-type': 'application/json' } });
        expect(response.status).toBe(200);
        const page = (await response.json()) as ListPage;
        pages.push(page);
        url = page.next;
        if (url) expect(url.startsWith(`${t.service.ctx.config.apiBaseUrl}/predictions?cursor=`)).toBe(true);
      }
      expect(pages.map((page) => page.results.length)).toEqual([100, 100, 30]);
      expect(pages.flatMap((page) => page.results.map((result) => result.id))).toEqual(expected);
      expect(pages[0]?.previous).toBeNull();
      expect(pages[2]?.next).toBeNull();
      const back = (await (await fetch(String(pages[2]?.previous), { headers: auth(lister.secret) })).json()) as ListPage;
      expect(back.results.map((result) => result.id)).toEqual(pages[1]?.results.map((result) => result.id));
      const first = (await (await fetch(String(back.previous), { headers: auth(lister.secret) })).json()) as ListPage;
      expect(first.results.map((result) => result.id)).toEqual(pages[0]?.results.map((result) => result.id));
      expect(first.previous).toBeNull();
    });

    it('should refuse a cursor it did not make with 422', async () => {
      const response = await fetch(`${t.replicateBase}/v1/predictions?cursor=bm90LWEtY3Vyc29y!`, { headers: auth() });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/cursor is not valid/);
    });
  });

  describe('GET /predictions/{id}/output.txt', () => {
    it('should answer 404 with a detail while the prediction has no transcript', async () => {
      const [key] = await t.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.label, 'test'));
      const row = storedRow(key?.id ?? '', new Date(), 'processing');
      await t.service.ctx.database.db.insert(predictions).values(row);
      const response = await fetch(`${t.replicateBase}/v1/predictions/${row.id}/output.txt`, { headers: auth() });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/has no transcript yet \(status processing\)/);
    });
  });

  describe('webhook fields', () => {
    it.each([
      ['the clients’ array of strings', ['start', 'completed', 'completed'], ['start', 'completed']],
      ['the spec’s array of arrays', [['start', 'logs'], ['completed']], ['start', 'logs', 'completed']],
      ['no filter', undefined, null],
    ])('should store webhook and %s', async (_name, filter, stored) => {
      const { id } = await createFrom('http://127.0.0.1:9/unreachable.wav', {
        webhook: 'https://hooks.example.invalid/hook',
        webhook_events_filter: filter,
      });
      const [row] = await t.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, id));
      expect(row?.webhook).toBe('https://hooks.example.invalid/hook');
      expect(row?.webhookEventsFilter).toEqual(stored);
      await pollPrediction(t.replicateBase, t.key, id);
    });
  });
});
