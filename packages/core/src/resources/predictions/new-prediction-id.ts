import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A new prediction id: 26 lowercase base32 characters (128 random bits), URL-safe like
 * Replicate's ids (replicate-compat.md section 8: clients put ids into paths unescaped).
 */
export function newPredictionId(): string {
  const bytes = randomBytes(17);
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && id.length < 26) {
      id += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return id;
}
