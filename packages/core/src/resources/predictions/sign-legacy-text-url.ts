import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How long a `txt_file_url` works without a key, seconds, counted from the prediction's completion:
 * 7 days. Every answer about the prediction carries the same URL (the expiry is fixed by
 * `completed_at`), so cached answers and repeated polls agree. With the key it works for as long
 * as the prediction is kept.
 */
export const LEGACY_TEXT_URL_TTL_SECONDS = 7 * 24 * 3600;

/** What a signed `txt_file_url` is checked against. */
export interface LegacyTextUrlSigner {
  /** The prediction id. */
  id: string;
  /** When the prediction ended. */
  completedAt: Date;
  /**
   * The stored SHA-256 hash of the API key that made the prediction (`api_keys.hash`): the HMAC key,
   * so no other secret needs configuring, only that key's holder could have made the URL, and no
   * URL of one key works for another key's prediction.
   */
  keyHash: string;
}

/** Result of checking a signed URL's query: `ok`, or why it is refused. */
export type LegacyTextUrlCheck = 'ok' | 'invalid' | 'expired';

const signatureOf = (keyHash: string, id: string, expires: number) =>
  createHmac('sha256', `txt_file_url:${keyHash}`).update(`v1:${id}:${expires}`).digest('base64url');

/** Unix seconds at which the signed URL of this prediction stops working. */
export function legacyTextUrlExpiry(completedAt: Date): number {
  return Math.floor(completedAt.getTime() / 1000) + LEGACY_TEXT_URL_TTL_SECONDS;
}

/**
 * The `txt_file_url` of the earlier interface variant (spec 9: its clients fetch the URL they are
 * given, without the key): `{apiBaseUrl}/predictions/{id}/output.txt?expires=<unix s>&signature=<HMAC>`,
 * HMAC-SHA256 in base64url, the same scheme as S3 or GCS signed URLs (a capability that ends at
 * `expires`). The same path still answers to the key alone, without the query.
 * @param apiBaseUrl absolute API base, e.g. `https://host/v1/replicate/v1`.
 */
export function signLegacyTextUrl(apiBaseUrl: string, signer: LegacyTextUrlSigner): string {
  const expires = legacyTextUrlExpiry(signer.completedAt);
  return `${apiBaseUrl}/predictions/${encodeURIComponent(signer.id)}/output.txt?expires=${expires}&signature=${signatureOf(signer.keyHash, signer.id, expires)}`;
}

/** An HMAC-SHA256 in base64url: 43 characters of the URL-safe alphabet. */
const SIGNATURE_FORM = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether `expires` and `signature` have the form of a signed `txt_file_url`'s query (1–12 digits;
 * 43 base64url characters), which can be told without the key: a query of another form is refused
 * before the prediction is looked up.
 */
export function isLegacyTextQueryWellFormed(expires: unknown, signature: unknown): boolean {
  return typeof expires === 'string' && typeof signature === 'string' && /^\d{1,12}$/.test(expires) && SIGNATURE_FORM.test(signature);
}

/**
 * Checks the `expires` and `signature` query values of a `txt_file_url` in constant time.
 * @param now the current time (tests pass their own).
 * @returns `invalid` when the values are malformed or do not match this prediction and key (a
 *   different id, a changed expiry), `expired` when they match but `expires` has passed, else `ok`.
 */
export function checkLegacyTextUrl(
  signer: LegacyTextUrlSigner,
  expires: unknown,
  signature: unknown,
  now = new Date(),
): LegacyTextUrlCheck {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !isLegacyTextQueryWellFormed(expires, signature)) return 'invalid';
  const expected = Buffer.from(signatureOf(signer.keyHash, signer.id, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'ok';
}
