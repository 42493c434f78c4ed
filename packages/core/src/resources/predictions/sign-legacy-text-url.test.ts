import { describe, expect, it } from 'vitest';
import { checkLegacyTextUrl, LEGACY_TEXT_URL_TTL_SECONDS, signLegacyTextUrl } from './sign-legacy-text-url.ts';

describe('signed txt_file_url (spec 9)', () => {
  const signer = { id: 'p8x2k', completedAt: new Date('2026-11-20T10:00:00Z'), keyHash: 'a'.repeat(64) };
  const url = new URL(signLegacyTextUrl('https://h.test/v1/replicate/v1', signer));
  const expires = url.searchParams.get('expires')!;
  const signature = url.searchParams.get('signature')!;

  it('should give the same URL every time, expiring 7 days after completion', () => {
    expect(signLegacyTextUrl('https://h.test/v1/replicate/v1', signer)).toBe(url.toString());
    expect(url.pathname).toBe('/v1/replicate/v1/predictions/p8x2k/output.txt');
    expect(Number(expires)).toBe(signer.completedAt.getTime() / 1000 + LEGACY_TEXT_URL_TTL_SECONDS);
  });

  it('should accept its own values before the expiry and call them expired after it', () => {
    expect(checkLegacyTextUrl(signer, expires, signature, new Date('2026-11-27T09:59:59Z'))).toBe('ok');
    expect(checkLegacyTextUrl(signer, expires, signature, new Date('2026-11-27T10:00:00Z'))).toBe('expired');
  });

  it.each([
    ['another prediction', { ...signer, id: 'p8x2l' }, expires, signature],
    ['another key', { ...signer, keyHash: 'b'.repeat(64) }, expires, signature],
    ['a moved expiry', signer, String(Number(expires) + 1), signature],
    ['a cut signature', signer, expires, signature.slice(0, -1)],
    ['a missing signature', signer, expires, undefined],
    ['a list of expiries', signer, [expires], signature],
    ['a non-numeric expiry', signer, '1e12', signature],
  ])('should call %s invalid, whatever the time', (_name, who, givenExpires, givenSignature) => {
    expect(checkLegacyTextUrl(who, givenExpires, givenSignature, new Date('2026-11-21T00:00:00Z'))).toBe('invalid');
  });
});
