import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@transcribe/core';
import { createLinkPrediction, getPrediction, waitForPrediction } from '../test-support/fake-engine-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface Place {
  position: number;
  ahead_audio_seconds: number;
  estimated_start_at: string;
  estimated_completed_at: string;
}

/**
 * The `queue` member of unfinished predictions and `GET /v1/queue` (docs/api.md "Queue"). No worker
 * runs, so the queue stays as made: key A's three links, then key B's one, which the fair queue puts
 * right after A's first (B has had no recognition time; A's first is older at the same priority).
 */
describe('the queue member and GET /v1/queue', () => {
  let t: TestService;
  let other: string;
  const a: string[] = [];
  let b: string;

  beforeAll(async () => {
    t = await startTestService('pglite', { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1', WORKER_CONCURRENCY: '0' });
    other = (await createApiKey(t.service.ctx.database.db, 'other')).secret;
    for (let n = 0; n < 3; n += 1) a.push(await createLinkPrediction(t.url, t.key, { input: { audio: `http://127.0.0.1:9/a-${n}.wav` } }));
    b = await createLinkPrediction(t.url, other, { input: { audio: 'http://127.0.0.1:9/b.wav' } });
    await sleep(1_100); // the queue view is read at most once a second
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should show each waiting prediction its position under the fair order, the audio ahead and later estimates further back', async () => {
    const places = await Promise.all(a.map(async (id) => (await getPrediction(t.url, t.key, id)).queue as Place));
    const bPlace = (await getPrediction(t.url, other, b)).queue as Place;
    expect(places.map((place) => place.position)).toEqual([0, 2, 3]);
    expect(bPlace.position).toBe(1);
    expect(places[2]!.ahead_audio_seconds).toBeGreaterThan(places[1]!.ahead_audio_seconds);
    const starts = [places[0]!, bPlace, places[1]!, places[2]!].map((place) => Date.parse(place.estimated_start_at));
    expect([...starts].sort((x, y) => x - y)).toEqual(starts);
    for (const place of [...places, bPlace]) {
      expect(Date.parse(place.estimated_completed_at)).toBeGreaterThan(Date.parse(place.estimated_start_at));
    }
  });

  it('should list the same in GET /v1/predictions, and no queue member once a prediction has ended', async () => {
    const list = (await (await fetch(`${t.replicateBase}/v1/predictions`, { headers: { authorization: `Bearer ${t.key}` } })).json()) as {
      results: { id: string; queue?: Place }[];
    };
    expect(list.results.find((item) => item.id === a[1])?.queue?.position).toBe(2);
    const canceled = (await (
      await fetch(`${t.replicateBase}/v1/predictions/${a[2]}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${t.key}` } })
    ).json()) as Record<string, unknown>;
    expect(canceled.status).toBe('canceled');
    expect(canceled).not.toHaveProperty('queue');
  });

  it("should list only the caller's unfinished predictions in GET /v1/queue, and every key by count only with the admin token", async () => {
    await sleep(1_100); // the cancel above shows in the next read of the queue view
    const own = await fetch(`${t.url}/v1/queue`, { headers: { authorization: `Bearer ${other}` } });
    expect(own.status).toBe(200);
    const body = (await own.json()) as { waiting: number; running: number; predictions: { id: string; status: string; queue: Place }[] };
    expect(body).toMatchObject({ waiting: 1, running: 0 });
    expect(body.predictions.map((item) => [item.id, item.status, item.queue.position])).toEqual([[b, 'waiting', 1]]);
    expect(JSON.stringify(body)).not.toContain(a[0]);

    const noKey = await fetch(`${t.url}/v1/queue`);
    expect(noKey.status).toBe(401);

    const { adminToken } = JSON.parse(await readFile(join(t.dataDir, 'service.json'), 'utf8')) as { adminToken: string };
    const admin = await fetch(`${t.url}/v1/queue`, { headers: { 'x-admin-token': adminToken } });
    expect(admin.status).toBe(200);
    const all = (await admin.json()) as Record<string, unknown>;
    expect(all).toMatchObject({
      waiting: 3,
      running: 0,
      keys: [
        { waiting: 2, running: 0 },
        { waiting: 1, running: 0 },
      ],
    });
    expect(JSON.stringify(all)).not.toMatch(new RegExp(`${a[0]}|${b}|http`));
    const wrong = await fetch(`${t.url}/v1/queue`, { headers: { 'x-admin-token': 'x'.repeat(adminToken.length) } });
    expect(wrong.status).toBe(404);
  });

  it('should say the wait in words in the logs', async () => {
    const waiting = await waitForPrediction(t.url, other, b, (p) => String(p.logs).includes('Waiting:'), 30_000);
    expect(String(waiting.logs)).toMatch(/Waiting: 1 recording ahead, (less than a minute|about \d+ minutes?)\n/);
  });
});

/**
 * The operator's view on a PostgreSQL deployment, where there is no DATA_DIR/service.json admin
 * token: METRICS_TOKEN in X-Admin-Token opens the count-only view from any address.
 */
describe('GET /v1/queue with the metrics token on PostgreSQL', () => {
  const METRICS_TOKEN = 'operator-token-0123456789';
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService('postgres', { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1', WORKER_CONCURRENCY: '0', METRICS_TOKEN });
    await createLinkPrediction(t.url, t.key, { input: { audio: 'http://127.0.0.1:9/a.wav' } });
    await createLinkPrediction(t.url, t.key, { input: { audio: 'http://127.0.0.1:9/b.wav' } });
    await sleep(1_100); // the queue view is read at most once a second
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should give every key by count only for the metrics token, and 404 for a wrong token of any bytes', async () => {
    const admin = await fetch(`${t.url}/v1/queue`, { headers: { 'x-admin-token': METRICS_TOKEN } });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({ waiting: 2, running: 0, keys: [{ waiting: 2, running: 0 }] });
    for (const wrong of ['x'.repeat(METRICS_TOKEN.length), 'é'.repeat(METRICS_TOKEN.length), '']) {
      const refused = await fetch(`${t.url}/v1/queue`, { headers: { 'x-admin-token': wrong } });
      expect(refused.status, JSON.stringify(wrong)).toBe(404);
    }
  });
});
