import { createHash, randomBytes } from 'node:crypto';

/** A new random secret for a sign-in link or a session: 256 bits as 43 base64url characters. */
export function newPortalSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a link token or session secret: the only form the database keeps. */
export function hashPortalSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True when `text` looks like a secret made by newPortalSecret (checked before any lookup). */
export function isPortalSecretShape(text: unknown): text is string {
  return typeof text === 'string' && /^[A-Za-z0-9_-]{43}$/.test(text);
}
