import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionInputOf } from '../../contract/validation/prediction-input.test-helper.ts';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { predictions, usageLedger } from '../../platform/db/schema.ts';
import { createApiKey } from '../keys/create-api-key.ts';
import { reissueUserApiKey } from '../keys/reissue-user-api-key.ts';
import { findAccountPrediction } from './find-account-prediction.ts';
import { listAccountPredictions } from './list-account-predictions.ts';
import { listOwnerApiKeys } from './list-owner-api-keys.ts';
import { summarizeDailyMinutes } from './summarize-daily-minutes.ts';

const DAY_MS = 24 * 3600 * 1000;

describe('portal account views', () => {
  let dir: string;
  let database: Database;
  const now = new Date('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-account-'));
    database = await openDatabase({ pgliteDir: dir });
    const mine = await createApiKey(database.db, 'bot', 'telegram:7');
    const theirs = await createApiKey(database.db, 'bot', 'telegram:8');
    const prediction = (id: string, apiKeyId: string, namespace: string, createdAt: Date, status = 'succeeded') => ({
      id,
      apiKeyId,
      namespace,
      status,
      input: {},
      params: predictionInputOf(`upload:${id}.wav`),
      source: { kind: 'upload' as const, path: `${id}.wav`, bytes: 0 },
      audioSeconds: 60,
      createdAt,
    });
    await database.db
      .insert(predictions)
      .values([
        prediction('p-old', mine.id, 'api', new Date(now.getTime() - 40 * DAY_MS)),
        prediction('p-paid', mine.id, 'portal', new Date(now.getTime() - 2 * DAY_MS)),
        prediction('p-free', mine.id, 'bot', new Date(now.getTime() - 1 * DAY_MS)),
        prediction('p-failed', mine.id, 'portal', new Date(now.getTime() - 3600_000), 'failed'),
        prediction('p-theirs', theirs.id, 'portal', new Date(now.getTime() - 3600_000)),
      ]);
    const charge = (predictionId: string, apiKeyId: string, userId: string, reason: string, createdAt: Date) => ({
      id: `chg-${predictionId}`,
      apiKeyId,
      userId,
      predictionId,
      mediaId: null,
      audioSeconds: 90,
      amount: reason === 'free_repeat' ? 0 : 1.5,
      reason,
      createdAt,
    });
    await database.db
      .insert(usageLedger)
      .values([
        charge('p-old', mine.id, 'telegram:7', 'recognition', new Date(now.getTime() - 40 * DAY_MS)),
        charge('p-paid', mine.id, 'telegram:7', 'recognition', new Date(now.getTime() - 2 * DAY_MS)),
        charge('p-free', mine.id, 'telegram:7', 'free_repeat', new Date(now.getTime() - 1 * DAY_MS)),
        charge('p-theirs', theirs.id, 'telegram:8', 'recognition', new Date(now.getTime() - 3600_000)),
      ]);
  });

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should list the person’s predictions of the window in every namespace, newest first, with charges', async () => {
    const rows = await listAccountPredictions(database.db, 'telegram:7', 27, now);
    expect(rows.map((row) => row.id)).toEqual(['p-failed', 'p-free', 'p-paid']);
    expect(rows.map((row) => row.namespace)).toEqual(['portal', 'bot', 'portal']);
    expect(rows[0]?.charge).toBeNull();
    expect(rows[1]?.charge).toEqual({ reason: 'free_repeat', amount: 0, audioSeconds: 90 });
    expect(rows[2]?.audio).toBe('upload:p-paid.wav');
  });

  it('should sum audio minutes per day over the window, with empty days as zeros', async () => {
    const days = await summarizeDailyMinutes(database.db, 'telegram:7', 27, now);
    expect(days).toHaveLength(28);
    expect(days[0]?.day).toBe('2026-02-11');
    expect(days.at(-1)?.day).toBe('2026-03-10');
    expect(days.find((day) => day.day === '2026-03-08')).toEqual({ day: '2026-03-08', chargedMinutes: 1.5, freeMinutes: 0 });
    expect(days.find((day) => day.day === '2026-03-09')).toEqual({ day: '2026-03-09', chargedMinutes: 0, freeMinutes: 1.5 });
    expect(days.reduce((sum, day) => sum + day.chargedMinutes + day.freeMinutes, 0)).toBe(3);
  });

  it('should find only the person’s own prediction', async () => {
    expect((await findAccountPrediction(database.db, 'p-free', 'telegram:7')).id).toBe('p-free');
    await expect(findAccountPrediction(database.db, 'p-theirs', 'telegram:7')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should list the keys that still work, including one in its grace period', async () => {
    const first = await reissueUserApiKey(database.db, { owner: 'portal:keys', label: 'portal', graceSeconds: 0, now });
    const second = await reissueUserApiKey(database.db, { owner: 'portal:keys', label: 'portal', graceSeconds: 300, now });
    const listed = await listOwnerApiKeys(database.db, 'portal:keys', new Date(now.getTime() + 1000));
    expect(listed.map((key) => key.id).sort()).toEqual([first.id, second.id].sort());
    const later = await listOwnerApiKeys(database.db, 'portal:keys', new Date(now.getTime() + 301_000));
    expect(later.map((key) => key.id)).toEqual([second.id]);
    expect(JSON.stringify(later)).not.toContain(second.secret);
  });
});
