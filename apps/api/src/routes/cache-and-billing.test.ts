import { createServer, type Server } from 'node:http';
import { readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createPrediction, mediaCache, transcriptCache, usageLedger } from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';

/**
 * Serves one recording under any path and counts downloads per path (a second link to the same bytes
 * too): whole GETs, not the HEAD that checks a link for another user (docs/caching-and-billing.md).
 */
async function countingServer(bytes: Buffer) {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.headers.range === undefined) hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'audio/wav' }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { base, hits: (path: string) => hits.get(path) ?? 0, close: () => server.close() };
}

describe.each(['pglite', 'postgres'] as const)('transcript cache and usage ledger on %s (spec 2.6)', (kind) => {
  let t: TestService;
  let media: Awaited<ReturnType<typeof countingServer>>;
  let link: (path: string) => string;

  const run = async (input: Record<string, unknown>, key = t.key) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const created = (await response.json()) as { id: string };
    return pollPrediction(t.replicateBase, key, created.id);
  };
  const charge = async (predictionId: string) => {
    const [row] = await t.service.ctx.database.db.select().from(usageLedger).where(eq(usageLedger.predictionId, predictionId));
    return row;
  };

  beforeAll(async () => {
    // The cache and ledger rules do not depend on the engine: the fake one (a fixed transcript after
    // the real download, decode and VAD) keeps this file cheap; engine output is tested elsewhere.
    t = await startTestService(kind, {
      PRICE_PER_MINUTE: '1',
      WORKER_CONCURRENCY: '8',
      RECOGNITION_ENGINE: 'fake',
      ALLOW_FAKE_ENGINE: '1',
    });
    media = await countingServer(await readFile(join(AUDIO_DIR, CLIP)));
    link = (path) => `${media.base}${path}`;
  });

  afterAll(async () => {
    media?.close();
    await t?.stop();
  });

  it('should reuse the download and transcript of a repeat and make it free for the user who paid (2.6.1, 2.6.2)', async () => {
    const first = await run({ audio: link('/a.wav') });
    expect(first.status).toBe('succeeded');
    expect((await charge(String(first.id)))?.reason).toBe('recognition');
    expect((await charge(String(first.id)))?.amount).toBeCloseTo(3.27 / 60, 3);
    const repeat = await run({ audio: link('/a.wav') });
    expect(repeat.status).toBe('succeeded');
    expect(repeat.output).toEqual(first.output);
    expect(String(repeat.logs)).toContain('transcript taken from the cache');
    expect(media.hits('/a.wav')).toBe(1);
    const row = await charge(String(repeat.id));
    expect(row?.reason).toBe('free_repeat');
    expect(row?.amount).toBe(0);
    expect(row?.mediaId).toBe((await charge(String(first.id)))?.mediaId);
  });

  it('should charge another user who takes the cached transcript, then let their repeat be free (2.6.2)', async () => {
    const other = await createApiKey(t.service.ctx.database.db, 'other user');
    const taken = await run({ audio: link('/a.wav') }, other.secret);
    expect(taken.output).toEqual((await run({ audio: link('/a.wav') })).output);
    expect(String(taken.logs)).not.toContain('cache'); // it would tell this user someone else sent the link
    expect(media.hits('/a.wav')).toBe(1);
    expect((await charge(String(taken.id)))?.reason).toBe('cached_transcript');
    expect((await charge(String(taken.id)))?.amount).toBeGreaterThan(0);
    const again = await run({ audio: link('/a.wav') }, other.secret);
    expect((await charge(String(again.id)))?.reason).toBe('free_repeat');
  });

  it('should run recognition again and charge normally when a recognition parameter differs, keeping only the latest variant (2.6.3, 2.6.4)', async () => {
    const hinted = await run({ audio: link('/a.wav'), prompt: 'a dinner party' });
    expect(String(hinted.logs)).not.toContain('transcript taken from the cache');
    expect(String(hinted.logs)).toContain('recording taken from the cache');
    expect((await charge(String(hinted.id)))?.reason).toBe('recognition');
    const back = await run({ audio: link('/a.wav') });
    expect(String(back.logs)).not.toContain('transcript taken from the cache');
    expect((await charge(String(back.id)))?.reason).toBe('recognition');
    const variants = await t.service.ctx.database.db.select().from(transcriptCache);
    const handle = (await charge(String(back.id)))?.mediaId;
    expect(variants.filter((v) => v.mediaId === handle)).toHaveLength(1);
    expect(media.hits('/a.wav')).toBe(1);
  });

  it('should download again under a new file handle when the stored download is damaged or expired (2.6.5)', async () => {
    const before = await run({ audio: link('/b.wav') });
    const firstHandle = (await charge(String(before.id)))?.mediaId;
    const [stored] = await t.service.ctx.database.db.select().from(mediaCache).where(eq(mediaCache.id, firstHandle!));
    await truncate(stored!.path, 100);
    const afterDamage = await run({ audio: link('/b.wav') });
    expect(afterDamage.status).toBe('succeeded');
    expect(media.hits('/b.wav')).toBe(2);
    const secondHandle = (await charge(String(afterDamage.id)))?.mediaId;
    expect(secondHandle).not.toBe(firstHandle);
    expect((await charge(String(afterDamage.id)))?.reason).toBe('recognition');
    await t.service.ctx.database.db.update(mediaCache).set({ expiresAt: sql`now() - interval '1 second'` });
    const afterExpiry = await run({ audio: link('/b.wav') });
    expect(media.hits('/b.wav')).toBe(3);
    expect((await charge(String(afterExpiry.id)))?.mediaId).not.toBe(secondHandle);
    expect((await charge(String(afterExpiry.id)))?.reason).toBe('recognition');
  });

  it('should keep the bot namespace apart from the API one (2.6.6) and not promise a hit for another link to the same bytes (2.6.7)', async () => {
    await run({ audio: link('/c.wav') });
    const ctx = t.service.ctx;
    const [key] = await ctx.database.db.select().from(usageLedger).limit(1);
    const fromBot = await createPrediction(ctx, { apiKeyId: key!.apiKeyId, namespace: 'bot', rawInput: { audio: link('/c.wav') } });
    const done = await pollPrediction(t.replicateBase, t.key, fromBot.id).catch(async () => null);
    expect(done === null || done.status === 'succeeded').toBe(true);
    await expect.poll(() => media.hits('/c.wav'), { timeout: 60_000 }).toBe(2);
    const other = await run({ audio: link('/c.wav?copy=1') });
    expect(String(other.logs)).not.toContain('taken from the cache');
    expect(media.hits('/c.wav?copy=1')).toBe(1);
  });

  it('should let two concurrent first requests for one link both succeed', async () => {
    const [one, two] = await Promise.all([run({ audio: link('/d.wav') }), run({ audio: link('/d.wav') })]);
    expect(one.status).toBe('succeeded');
    expect(two.status).toBe('succeeded');
    const [stored] = await t.service.ctx.database.db
      .select()
      .from(mediaCache)
      .where(eq(mediaCache.link, link('/d.wav')));
    expect(stored).toBeDefined();
  });

  it('should never charge a rejected request (422)', async () => {
    const [{ count: before }] = (await t.service.ctx.database.db.select({ count: sql<number>`count(*)::int` }).from(usageLedger)) as [
      { count: number },
    ];
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: link('/a.wav'), cut_start: '00:01' } }),
    });
    expect(response.status).toBe(422);
    const [{ count: after }] = (await t.service.ctx.database.db.select({ count: sql<number>`count(*)::int` }).from(usageLedger)) as [
      { count: number },
    ];
    expect(Number(after)).toBe(Number(before));
  });

  it('should report the usage of the window at GET /v1/account', async () => {
    const response = await fetch(`${t.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${t.key}` } });
    const body = (await response.json()) as {
      usage: { predictions: number; free_repeats: number; audio_seconds_charged: number; window_days: number };
    };
    expect(response.status).toBe(200);
    expect(body.usage.window_days).toBe(27);
    expect(body.usage.free_repeats).toBeGreaterThanOrEqual(1);
    expect(body.usage.predictions).toBeGreaterThanOrEqual(6);
    expect(body.usage.audio_seconds_charged).toBeGreaterThan(10);
  });

  it(
    'should fail with cache_changed when a concurrent request replaces the variant being read (spec 7)',
    { timeout: 400_000 },
    async () => {
      await run({ audio: link('/race.wav'), prompt: 'first' }); // stores the variant made with prompt "first"
      // Every time, not by chance: the reader has matched the stored parameters and, before it reads
      // the transcript, another prediction of the same link with other parameters replaces the variant.
      let writer: Record<string, unknown> | undefined;
      t.service.ctx.hooks = {
        beforeCachedTranscriptRead: async () => {
          if (writer) return;
          writer = {};
          writer = await run({ audio: link('/race.wav'), prompt: 'second' });
        },
      };
      try {
        const reader = await run({ audio: link('/race.wav'), prompt: 'first' });
        expect(writer?.status).toBe('succeeded');
        expect(reader.status).toBe('failed');
        expect(String(reader.error)).toMatch(/^cache_changed: [\s\S]*Repeat the request\.$/);
        expect(reader.error_code).toBe('cache_changed'); // machine-readable as well as the text (spec 7: "error with code")
        expect(writer?.error_code).toBeNull();
        expect(await charge(String(reader.id))).toBeUndefined();
        // Repeated, as the message says, it succeeds (the writer's variant is the stored one now).
        const repeated = await run({ audio: link('/race.wav'), prompt: 'second' });
        expect(repeated.status).toBe('succeeded');
        expect(String(repeated.logs)).toContain('transcript taken from the cache');
      } finally {
        t.service.ctx.hooks = undefined;
      }
    },
  );
});
