import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictionInputOf } from '../../contract/validation/prediction-input.test-helper.ts';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { predictions } from '../../platform/db/schema.ts';
import { createApiKey } from '../keys/create-api-key.ts';
import { DEFAULT_BOT_USER_SETTINGS, type BotUserSettings } from './bot-user-settings.ts';
import { findOwnedPrediction } from './find-owned-prediction.ts';
import { getBotUserSettings } from './get-bot-user-settings.ts';
import { saveBotUserSettings } from './save-bot-user-settings.ts';
import { summarizeOwnerUsage } from './summarize-owner-usage.ts';

describe('bot users', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bot-users-test-'));
    database = await openDatabase({ pgliteDir: dir });
  });

  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should give the defaults before anything is saved, then the saved settings', async () => {
    expect(await getBotUserSettings(database.db, '1')).toEqual(DEFAULT_BOT_USER_SETTINGS);
    const settings: BotUserSettings = { language: 'en', outputFormat: 'srt', postProcess: ['summary'], speakers: 2, knownVoices: false };
    await saveBotUserSettings(database.db, '1', settings);
    expect(await getBotUserSettings(database.db, '1')).toEqual(settings);
    await saveBotUserSettings(database.db, '1', { ...settings, speakers: null });
    expect((await getBotUserSettings(database.db, '1')).speakers).toBeNull();
    await saveBotUserSettings(database.db, '1', { ...settings, knownVoices: true });
    expect((await getBotUserSettings(database.db, '1')).knownVoices).toBe(true);
  });

  it('should refuse settings that break a rule, naming it', async () => {
    const good: BotUserSettings = { language: null, outputFormat: 'messages', postProcess: [], speakers: null, knownVoices: true };
    const cases: [Partial<BotUserSettings>, string][] = [
      [{ language: 'xx' }, 'language'],
      [{ outputFormat: 'pdf' as never }, 'output_format'],
      [{ postProcess: ['summary', 'summary'] }, 'post_process'],
      [{ postProcess: ['srt'] }, 'post_process'],
      [{ speakers: 0 }, 'speakers'],
      [{ speakers: 1.5 }, 'speakers'],
      [{ knownVoices: 'yes' as never }, 'known_voices'],
    ];
    for (const [change, param] of cases) {
      await expect(saveBotUserSettings(database.db, '2', { ...good, ...change })).rejects.toMatchObject({ code: 'invalid_input', param });
    }
    expect(await getBotUserSettings(database.db, '2')).toEqual(DEFAULT_BOT_USER_SETTINGS);
  });

  it('should find a person’s prediction only in its namespace, and sum usage per namespace', async () => {
    const mine = await createApiKey(database.db, 'bot', 'telegram:9');
    const theirs = await createApiKey(database.db, 'bot', 'telegram:10');
    const row = (id: string, apiKeyId: string, namespace: string) => ({
      id,
      apiKeyId,
      namespace,
      status: 'succeeded',
      input: {},
      params: predictionInputOf('https://example.com/a.wav'),
      source: { kind: 'link' as const, url: 'https://example.com/a.wav' },
      audioSeconds: 30,
    });
    await database.db.insert(predictions).values([row('p1', mine.id, 'bot'), row('p2', mine.id, 'api'), row('p3', theirs.id, 'bot')]);
    expect((await findOwnedPrediction(database.db, 'p1', { owner: 'telegram:9', namespace: 'bot' })).id).toBe('p1');
    await expect(findOwnedPrediction(database.db, 'p2', { owner: 'telegram:9', namespace: 'bot' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(findOwnedPrediction(database.db, 'p3', { owner: 'telegram:9', namespace: 'bot' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await summarizeOwnerUsage(database.db, 'telegram:9')).toEqual([
      { namespace: 'api', predictions: 1, succeeded: 1, audioSeconds: 30 },
      { namespace: 'bot', predictions: 1, succeeded: 1, audioSeconds: 30 },
    ]);
    expect(await summarizeOwnerUsage(database.db, 'telegram:11')).toEqual([]);
  });
});
