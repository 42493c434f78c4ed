import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import Replicate, { validateWebhook } from 'replicate-1.4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiKey,
  deliverCompletedWebhook,
  DEFAULT_WEBHOOK_OPTIONS,
  enqueueCompletedWebhook,
  listWebhookAttempts,
  predictions,
  sweepUndeliveredWebhooks,
  webhookDeliveries,
} from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../test-support/start-webhook-receiver.ts';

type Body = Record<string, unknown>;
const TERMINAL = ['succeeded', 'failed', 'canceled'];
const parse = (got: ReceivedWebhook): Body => JSON.parse(got.body) as Body;
const isCompleted = (got: ReceivedWebhook[]) => got.some((entry) => TERMINAL.includes(String(parse(entry).status)));

describe('webhooks through the API (replicate-compat.md 7)', () => {
  let t: TestService;
  let files: FileServer;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    t = await startTestService('pglite', { ALLOW_PRIVATE_NETWORK: '1', WEBHOOK_RETRY_DELAY_SECONDS: '1' });
    files = await serveFiles(AUDIO_DIR);
    receiver = await startWebhookReceiver();
    const client = new Replicate({ auth: t.key, baseUrl: `${t.replicateBase}/v1` }) as unknown as {
      webhooks: { default: { secret: { get(): Promise<{ key: string }> } } };
    };
    secret = (await client.webhooks.default.secret.get()).key;
  });

  afterAll(async () => {
    await t?.stop();
    await receiver?.close();
    await files?.close();
  });

  async function create(path: string, extra: Body = {}, audio = 'jfk.wav'): Promise<string> {
    const response = await fetch(`${t.replicateBase}/v1/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: 'service/transcribe',
        input: { audio: `${files.url}/${audio}` },
        webhook: `${receiver.url}${path}`,
        ...extra,
      }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function getPrediction(id: string): Promise<Body> {
    const response = await fetch(`${t.replicateBase}/v1/predictions/${id}`, { headers: { authorization: `Bearer ${t.key}` } });
    return (await response.json()) as Body;
  }

  async function deliveryState(id: string) {
    const db = t.service.ctx.database.db;
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.predictionId, id), eq(webhookDeliveries.event, 'completed')));
    return row;
  }

  describe('GET /v1/webhooks/default/secret', () => {
    it('should give one whsec_ secret per paying user, the same on every call', async () => {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const again = await fetch(`${t.replicateBase}/v1/webhooks/default/secret`, { headers: { authorization: `Bearer ${t.key}` } });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ key: secret });
    });

    it('should share the secret between keys of one owner and not with others', async () => {
      const db = t.service.ctx.database.db;
      const [first, second, other] = [
        await createApiKey(db, 'a', 'telegram:1'),
        await createApiKey(db, 'b', 'telegram:1'),
        await createApiKey(db, 'c', 'telegram:2'),
      ];
      const keyOf = async (key: string) =>
        (
          (await (
            await fetch(`${t.url}/v1/replicate/webhooks/default/secret`, { headers: { authorization: `Bearer ${key}` } })
          ).json()) as { key: string }
        ).key;
      const shared = await keyOf(first.secret);
      expect(await keyOf(second.secret)).toBe(shared);
      expect(await keyOf(other.secret)).not.toBe(shared);
      expect(shared).not.toBe(secret);
    });

    it('should answer 401 without a key', async () => {
      const response = await fetch(`${t.replicateBase}/v1/webhooks/default/secret`);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/No API key/);
    });
  });

  it('should send only logs and completed without a filter (spec 6.1), signed', async () => {
    const id = await create('/default');
    await receiver.waitFor('/default', isCompleted, 120_000);
    await sleep(1000);
    const got = receiver.on('/default');
    for (const entry of got)
      expect(await validateWebhook({ headers: entry.headers as Record<string, string>, body: entry.body }, secret)).toBe(true);
    const events = got.map((entry) => String(entry.headers['webhook-id']).split('_')[2]);
    expect(events).toContain('logs');
    expect(events.filter((event) => event !== 'logs')).toEqual(['completed']);
    expect(parse(got.at(-1)!)).toEqual(await getPrediction(id));
    // A logs event never carries a finished prediction: the receiver handles the end exactly once.
    for (const entry of got.slice(0, -1)) expect(parse(entry)).toMatchObject({ id, status: 'processing' });
  });

  it('should deliver start, logs, output and completed when the filter names all four, signed, completed equal to GET', async () => {
    // A recording no other test here uses: a cached repeat ends before any logs event could go out.
    const id = await create(
      '/all',
      { webhook_events_filter: ['start', 'output', 'logs', 'completed'] },
      'librispeech-test-clean/1089-134686-0000.wav',
    );
    const got = await receiver.waitFor('/all', isCompleted, 120_000);
    await sleep(300);
    for (const entry of receiver.on('/all'))
      expect(await validateWebhook({ headers: entry.headers as Record<string, string>, body: entry.body }, secret)).toBe(true);
    const events = receiver.on('/all').map((entry) => String(entry.headers['webhook-id']).split('_')[2]);
    expect(events[0]).toBe('start');
    expect(events.slice(-2)).toEqual(['output', 'completed']);
    expect(events).toContain('logs');
    expect(parse(got[0]!)).toMatchObject({ id, status: 'processing', output: null });
    const completed = receiver.on('/all').at(-1)!;
    expect(completed.headers['webhook-id']).toBe(`msg_${id}_completed`);
    expect(parse(completed)).toEqual(await getPrediction(id));
    expect(parse(completed)).toMatchObject({ status: 'succeeded', urls: { get: `${t.service.ctx.config.apiBaseUrl}/predictions/${id}` } });
    const logs = receiver.on('/all').filter((entry) => String(entry.headers['webhook-id']).includes('_logs_'));
    // Sent at most once per 500 ms: measured over all of them, so that the arrival jitter of one
    // delivery (a busy machine) cannot make two neighbours look closer than they were sent.
    if (logs.length > 1) expect(logs.at(-1)!.at - logs[0]!.at).toBeGreaterThanOrEqual((logs.length - 1) * 500 - 250);
  });

  it('should send only completed with webhook_events_filter ["completed"]', async () => {
    const id = await create('/only-completed', { webhook_events_filter: ['completed'] });
    await receiver.waitFor('/only-completed', isCompleted);
    await sleep(1000);
    const got = receiver.on('/only-completed');
    expect(got).toHaveLength(1);
    expect(parse(got[0]!)).toMatchObject({ id, status: 'succeeded' });
    expect(await validateWebhook({ headers: got[0]!.headers as Record<string, string>, body: got[0]!.body }, secret)).toBe(true);
  });

  it('should send only output, once, with webhook_events_filter ["output"]', async () => {
    const id = await create('/only-output', { webhook_events_filter: ['output'] });
    const [got] = await receiver.waitFor('/only-output', (entries) => entries.length >= 1);
    await sleep(1000);
    expect(receiver.on('/only-output')).toHaveLength(1);
    expect(String(got!.headers['webhook-id'])).toMatch(new RegExp(`^msg_${id}_output_`));
    expect(parse(got!)).toEqual(await getPrediction(id));
    expect(parse(got!)).toMatchObject({ status: 'succeeded' });
  });

  it('should retry completed after 500, 500 with the same webhook-id and deliver it once', async () => {
    receiver.script('/flaky', [500, 500]);
    const id = await create('/flaky', { webhook_events_filter: ['completed'] });
    await receiver.waitFor('/flaky', (got) => got.length >= 3, 60_000);
    await sleep(2500);
    const got = receiver.on('/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((entry) => entry.headers['webhook-id']))).toEqual(new Set([`msg_${id}_completed`]));
    for (const entry of got)
      expect(await validateWebhook({ headers: entry.headers as Record<string, string>, body: entry.body }, secret)).toBe(true);
    expect((await listWebhookAttempts(t.service.ctx.database.db, id)).map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
    expect(await deliveryState(id)).toMatchObject({ status: 'delivered', attempts: 3 });
    // Idempotent: enqueueing or running the job again sends nothing.
    expect(await enqueueCompletedWebhook(t.service.ctx, id, DEFAULT_WEBHOOK_OPTIONS)).toBe(false);
    expect(await deliverCompletedWebhook(t.service.ctx, { predictionId: id, retryCount: 0, retryLimit: 30 }, DEFAULT_WEBHOOK_OPTIONS)).toBe(
      'skipped',
    );
    expect(receiver.on('/flaky')).toHaveLength(3);
  });

  it('should not retry after a 400', async () => {
    receiver.script('/reject', [400]);
    const id = await create('/reject', { webhook_events_filter: ['completed'] });
    await receiver.waitFor('/reject', (got) => got.length >= 1);
    await sleep(3500);
    expect(receiver.on('/reject')).toHaveLength(1);
    expect(await deliveryState(id)).toMatchObject({ status: 'failed', attempts: 1 });
    const [attempt] = await listWebhookAttempts(t.service.ctx.database.db, id);
    expect(attempt).toMatchObject({ event: 'completed', statusCode: 400, error: 'The receiver answered HTTP 400.' });
  });

  it('should not follow a redirect, and retry it as a failed attempt', async () => {
    receiver.script('/moved', [302, 302, 302, 302, 302, 302, 302, 302]);
    const id = await create('/moved', { webhook_events_filter: ['completed'] });
    const got = await receiver.waitFor('/moved', (entries) => entries.length >= 2, 60_000);
    expect(receiver.on('/redirect-target')).toHaveLength(0);
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    const [attempt] = await listWebhookAttempts(t.service.ctx.database.db, id);
    expect(attempt).toMatchObject({ statusCode: 302, error: 'Redirect to /redirect-target not followed.' });
  });

  it('should deliver completed with status canceled on cancel', async () => {
    const id = await create('/canceled', { webhook_events_filter: ['completed'] }, 'librispeech-test-clean/1089-134686-0001.wav');
    const canceled = await fetch(`${t.replicateBase}/v1/predictions/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(canceled.status).toBe(200);
    const [got] = await receiver.waitFor('/canceled', isCompleted);
    expect(parse(got!)).toMatchObject({ id, status: 'canceled' });
    expect(parse(got!)).toEqual(await getPrediction(id));
  });

  it('should deliver, once, a completed event that a stopped process never enqueued (sweep)', async () => {
    const id = await create('/swept', { webhook_events_filter: ['start'] });
    await pollPrediction(t.replicateBase, t.key, id);
    await receiver.waitFor('/swept', (got) => got.length === 1); // its start event
    // As if the process had stopped after ending the prediction, before enqueueing `completed`.
    await t.service.ctx.database.db
      .update(predictions)
      .set({ webhookEventsFilter: ['completed'] })
      .where(eq(predictions.id, id));
    expect(await sweepUndeliveredWebhooks(t.service.ctx, DEFAULT_WEBHOOK_OPTIONS)).toBeGreaterThanOrEqual(1);
    const got = await receiver.waitFor('/swept', (entries) => entries.length === 2);
    expect(got[1]!.headers['webhook-id']).toBe(`msg_${id}_completed`);
    expect(parse(got[1]!)).toEqual(await getPrediction(id));
    await sweepUndeliveredWebhooks(t.service.ctx, DEFAULT_WEBHOOK_OPTIONS);
    await sleep(1500);
    expect(receiver.on('/swept')).toHaveLength(2);
    expect(await deliveryState(id)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('should give up on retries once the deadline is near', async () => {
    const id = await create('/down', { webhook_events_filter: ['start'] });
    await pollPrediction(t.replicateBase, t.key, id);
    await receiver.waitFor('/down', (got) => got.length === 1); // its start event
    receiver.script('/down', [500, 500]);
    const db = t.service.ctx.database.db;
    await db.insert(webhookDeliveries).values({ predictionId: id, event: 'completed', webhookId: `msg_${id}_completed` });
    const options = { ...DEFAULT_WEBHOOK_OPTIONS, retryDeadlineMs: 5_000, retryDelaySeconds: 1 };
    const job = { predictionId: id, retryCount: 0, retryLimit: 30 };
    await expect(deliverCompletedWebhook(t.service.ctx, job, options)).rejects.toThrow(/HTTP 500.*retrying/);
    // The next retry could start 2^3 s after the first attempt, past the 5 s deadline: give up.
    expect(await deliverCompletedWebhook(t.service.ctx, { ...job, retryCount: 2 }, options)).toBe('failed');
    expect(await deliveryState(id)).toMatchObject({ status: 'failed', attempts: 2 });
  });
});
