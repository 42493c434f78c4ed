import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApiKey, predictions, reissueUserApiKey } from '@transcribe/core';
import { serviceLockPath, type ServiceLockInfo } from '../service-lock.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const HEADER = 'x-service-output-transformers';

/**
 * The in-memory caches of the API process: authenticated keys (resources/keys/api-key-cache.ts) and
 * the answers of finished predictions (http/prediction-body-cache.ts), through the real service.
 */
describe('key and finished-prediction caches through the API', () => {
  let t: TestService;
  let files: FileServer;

  const get = async (id: string, key = t.key, headers: Record<string, string> = {}) => {
    const response = await fetch(`${t.replicateBase}/v1/predictions/${id}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
  };
  const create = async (input: Record<string, unknown>, key = t.key) => {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const run = async (input: Record<string, unknown>, key = t.key) => {
    const id = await create(input, key);
    return { id, done: await pollPrediction(t.replicateBase, key, id) };
  };
  const setTranscriptBehindTheService = (id: string, text: string) =>
    t.service.ctx.database.executeSql(
      `UPDATE predictions SET output = jsonb_build_object('text', $1::text), logs = logs || 'x\n' WHERE id = $2`,
      [text, id],
    );

  beforeAll(async () => {
    // A long key TTL, so only an invalidation (never an expiry) can explain a refused key below.
    t = await startTestService('pglite', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      FAKE_ENGINE_DELAY_MS: '1500',
      KEY_CACHE_TTL_MS: '60000',
    });
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should give the same bytes for repeated reads of a finished prediction, from memory', async () => {
    const { id, done } = await run({ audio: `${files.url}/jfk.wav`, output_format: 'json' });
    expect(done.status).toBe('succeeded');
    const first = await get(id);
    const again = await get(id);
    expect(first.status).toBe(200);
    expect(first.type).toBe('application/json; charset=utf-8');
    expect(again.text).toBe(first.text);
    expect(String((JSON.parse(first.text) as { logs: string }).logs)).toMatch(/ succeeded\n$/); // the last line came with the end
    await setTranscriptBehindTheService(id, 'changed behind the service');
    expect((await get(id)).text).toBe(first.text); // answered from memory: no database read
  });

  it('should keep one answer per X-Service-Output-Transformers value', async () => {
    const { id } = await run({ audio: `${files.url}/jfk.wav`, output_format: 'json' });
    const plain = await get(id);
    const text = await get(id, t.key, { [HEADER]: 'text?timestamps=false&speakers=false' });
    const timed = await get(id, t.key, { [HEADER]: 'text' });
    const outputOf = (answer: { text: string }) => (JSON.parse(answer.text) as { output: unknown }).output;
    expect(typeof outputOf(plain)).toBe('object');
    expect(String(outputOf(text))).toMatch(/^fake engine transcript\n?$/);
    expect(String(outputOf(timed))).toMatch(/^\[[\d:. -]+\] SPEAKER_1: fake engine transcript\n?$/);
    expect((await get(id, t.key, { [HEADER]: 'text?timestamps=false&speakers=false' })).text).toBe(text.text);
    expect((await get(id, t.key, { [HEADER]: 'text' })).text).toBe(timed.text);
    expect((await get(id)).text).toBe(plain.text);
    expect((await get(id, t.key, { [HEADER]: 'text?nonsense=1' })).status).toBe(422); // still validated on every read
  });

  it('should answer 404 to another key for a cached prediction', async () => {
    const { id } = await run({ audio: `${files.url}/jfk.wav` });
    expect((await get(id)).status).toBe(200);
    const other = await createApiKey(t.service.ctx.database.db, 'other');
    const answer = await get(id, other.secret);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('fake engine transcript');
  });

  it('should keep a canceled prediction as it was canceled', async () => {
    const id = await create({ audio: `${files.url}/jfk.wav` });
    expect(JSON.parse((await get(id)).text).status).toBe('processing');
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status).toBe('succeeded');
    const slow = await create({ audio: `${files.url}/jfk.wav` });
    const canceled = await fetch(`${t.replicateBase}/v1/predictions/${slow}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(((await canceled.json()) as { status: string }).status).toBe('canceled');
    const first = (await get(slow)).text;
    expect(JSON.parse(first).status).toBe('canceled');
    expect(JSON.parse(first).logs).toMatch(/canceled\n$/); // its last line came with the cancel
    await sleep(2500); // the worker notices the cancel and stops: it must not add a line
    const [row] = await t.service.ctx.database.db.select({ logs: predictions.logs }).from(predictions).where(eq(predictions.id, slow));
    expect(row?.logs).toBe(JSON.parse(first).logs);
    await setTranscriptBehindTheService(slow, 'ignored');
    expect((await get(slow)).text).toBe(first); // settled: answered from memory
  });

  it('should refuse a key revoked through the admin route (apikey CLI) at once', async () => {
    const key = await createApiKey(t.service.ctx.database.db, 'to revoke');
    const { id } = await run({ audio: `${files.url}/jfk.wav` }, key.secret);
    expect((await get(id, key.secret)).status).toBe(200);
    expect((await get(id, key.secret)).status).toBe(200); // key and answer cached now
    const lock = JSON.parse(await readFile(serviceLockPath(t.dataDir), 'utf8')) as ServiceLockInfo; // what the apikey CLI reads
    const revoked = await fetch(`http://127.0.0.1:${lock.port}/internal/api-keys/${key.id}/revoke`, {
      method: 'POST',
      headers: { 'x-admin-token': lock.adminToken },
    });
    expect(revoked.status).toBe(200);
    expect((await get(id, key.secret)).status).toBe(401);
  });

  it('should apply a bot or portal key reissue at once: the grace period, or a stop right away', async () => {
    const owner = 'telegram:cache-test';
    const first = await reissueUserApiKey(t.service.ctx.database.db, { owner, label: 'bot', graceSeconds: 0 });
    const { id } = await run({ audio: `${files.url}/jfk.wav` }, first.secret);
    expect((await get(id, first.secret)).status).toBe(200);
    const second = await reissueUserApiKey(t.service.ctx.database.db, { owner, label: 'bot', graceSeconds: 300 });
    expect((await get(id, first.secret)).status).toBe(200); // within the grace period
    await reissueUserApiKey(t.service.ctx.database.db, { owner, label: 'bot', graceSeconds: 0 });
    await sleep(5); // revokedAt = now: let the clock pass it
    expect((await get(id, first.secret)).status).toBe(401);
    expect((await get(id, second.secret)).status).toBe(401);
  });
});
