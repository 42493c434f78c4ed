import { createHash, randomBytes } from 'node:crypto';

/** Prefix of every API key, so leaked keys are easy to recognise in logs and scanners. */
export const API_KEY_PREFIX = 'tsk_';

/** A freshly made key: `secret` is shown once and never stored; `hash` is what the database keeps. */
export interface GeneratedApiKey {
  id: string;
  secret: string;
  prefix: string;
  hash: string;
}

/**
 * Hex SHA-256 of a key: the only form in which keys are stored, so a copy of the database holds no
 * usable key (spec 5.4).
 */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Makes a random 256-bit key (`tsk_` + 43 base64url characters) with its id, display prefix and hash. */
export function generateApiKey(): GeneratedApiKey {
  const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return {
    id: 'key_' + randomBytes(8).toString('hex'),
    secret,
    prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
    hash: hashApiKey(secret),
  };
}
