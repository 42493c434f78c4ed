import type { Db } from '../../platform/db/open-database.ts';
import { invalidInput } from '../../contract/validation/invalid-input.ts';
import type { KnownVoice } from '../../pipeline/voices/identify-speakers.ts';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../platform/db/schema.ts';
import { listVoices } from './list-voices.ts';
import { voiceAccountOf } from './voice-account.ts';

/**
 * The voices a prediction's `known_voices` names, from the account's registry: `true` all of them, a
 * list each entry by id, else by name (names are unique within an account).
 * @returns the voices with their embeddings (possibly none for `true` on an empty registry).
 * @throws AppError `invalid_input` (422, param `known_voices`) naming the first entry the account has no
 *   voice for (another account's voices are unknown here, as they are to GET /v1/voices/{id}).
 */
export async function resolveKnownVoices(db: Db, account: string, known: string[] | true): Promise<KnownVoice[]> {
  const rows = await listVoices(db, account);
  const all = rows.map((row) => ({ id: row.id, name: row.name, embeddings: row.embeddings }));
  if (known === true) return all;
  return known.map((entry) => {
    const voice = all.find((v) => v.id === entry) ?? all.find((v) => v.name === entry.trim());
    if (!voice) {
      throw invalidInput(
        'known_voices',
        `known_voices names ${JSON.stringify(entry.slice(0, 64))}, which is no voice of this account; GET /v1/voices lists them.`,
      );
    }
    return voice;
  });
}

/**
 * The account of a key by its id (voiceAccountOf of its row).
 * @throws Error when the key does not exist (a prediction's key always does).
 */
export async function voiceAccountOfKeyId(db: Db, apiKeyId: string): Promise<string> {
  const [key] = await db.select({ id: apiKeys.id, owner: apiKeys.owner }).from(apiKeys).where(eq(apiKeys.id, apiKeyId)).limit(1);
  if (!key) throw new Error(`no API key ${apiKeyId}`);
  return voiceAccountOf(key);
}

/**
 * The voices a running prediction offers to its recording: `known` as checked at creation (ids, or
 * `true`), read again now; a voice deleted since is left out (deletion takes effect at once).
 */
export async function knownVoicesForRun(db: Db, apiKeyId: string, known: string[] | true): Promise<KnownVoice[]> {
  const rows = await listVoices(db, await voiceAccountOfKeyId(db, apiKeyId));
  const all = rows.map((row) => ({ id: row.id, name: row.name, embeddings: row.embeddings }));
  return known === true ? all : all.filter((voice) => known.includes(voice.id));
}
