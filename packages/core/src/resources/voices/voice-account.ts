import type { ApiKeyRow } from '../../platform/db/schema.ts';

/**
 * The account a key's voices belong to (docs/speakers.md): the key's owner (`telegram:<id>`,
 * `portal:<name>`), so a reissued key of the same person keeps their voices, or `key:<id>` for a key
 * without an owner (made by the operator's CLI), whose voices no other key sees.
 */
export function voiceAccountOf(key: Pick<ApiKeyRow, 'id' | 'owner'>): string {
  return key.owner ?? `key:${key.id}`;
}

/** Voices an account may keep unless VOICES_PER_ACCOUNT says otherwise. */
export const DEFAULT_MAX_VOICES_PER_ACCOUNT = 50;
