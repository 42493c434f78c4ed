import { randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_BYTES = 17;
/** Ids drawn per refill of the random pool: one randomFillSync call for 256 ids instead of one per id. */
const IDS_PER_FILL = 256;

/**
 * The random bytes of the next ids, refilled from the CSPRNG when used up (node:crypto
 * `randomFillSync`, the same source as `randomBytes`; Node's own `randomUUID` keeps such a pool too).
 * Each byte is used once. Per process, not per request: ids are opaque and carry no context.
 */
const pool = Buffer.alloc(ID_BYTES * IDS_PER_FILL);
let offset = pool.length;

/**
 * A new prediction id: 26 lowercase base32 characters (128 random bits), URL-safe like
 * Replicate's ids (replicate-compat.md section 8: clients put ids into paths unescaped).
 */
export function newPredictionId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const start = offset;
  offset += ID_BYTES;
  let bits = 0;
  let value = 0;
  let id = '';
  for (let i = start; i < start + ID_BYTES; i += 1) {
    value = ((value << 8) | pool[i]!) & 0xffff;
    bits += 8;
    while (bits >= 5 && id.length < 26) {
      id += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return id;
}
