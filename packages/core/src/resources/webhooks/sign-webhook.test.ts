import { webcrypto } from 'node:crypto';
import { validateWebhook } from 'replicate-1.4';
import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders } from './sign-webhook.ts';
import { newWebhookSecret } from './webhook-secret.ts';

const body = Buffer.from(JSON.stringify({ id: 'p1', status: 'succeeded', output: { text: 'ask not — what your country…' } }));

/** Standard Webhooks verification written from the spec, independent of signWebhook (Web Crypto HMAC). */
async function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string>,
  raw: Buffer,
  toleranceSeconds = 300,
): Promise<boolean> {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const keyBytes = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const key = await webcrypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), raw]);
  const expected = Buffer.from(await webcrypto.subtle.sign('HMAC', key, content)).toString('base64');
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => entry === `v1,${expected}`);
}

describe('newWebhookSecret', () => {
  it('should make whsec_ plus padded standard base64 of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(secret.split('_')).toHaveLength(2); // the Python client splits on the one underscore
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('signWebhook', () => {
  const secret = newWebhookSecret();
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = webhookHeaders({ secret, id: 'msg_p1_completed', timestamp, body });

  it('should be accepted by validateWebhook of the replicate 1.4.0 client (headers form)', async () => {
    expect(await validateWebhook({ headers, body: body.toString() }, secret)).toBe(true);
    expect(await validateWebhook({ headers: new Headers(headers), body: body.toString() }, secret)).toBe(true);
  });

  it('should be accepted by validateWebhook of the replicate 1.4.0 client (fields form)', async () => {
    const fields = {
      id: headers['webhook-id']!,
      timestamp: headers['webhook-timestamp']!,
      signature: headers['webhook-signature']!,
      body: body.toString(),
      secret,
    };
    expect(await validateWebhook(fields)).toBe(true);
  });

  it('should verify per the Standard Webhooks spec', async () => {
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
    expect(await verifyStandardWebhook(secret, headers, body)).toBe(true);
  });

  it('should fail validation when one byte of the body changes', async () => {
    const changed = Buffer.from(body);
    changed[10] = changed[10]! ^ 1;
    expect(await validateWebhook({ headers, body: changed.toString() }, secret)).toBe(false);
    expect(await verifyStandardWebhook(secret, headers, changed)).toBe(false);
  });

  it('should fail validation with another secret, id or timestamp', async () => {
    expect(await validateWebhook({ headers, body: body.toString() }, newWebhookSecret())).toBe(false);
    expect(await verifyStandardWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body)).toBe(false);
    expect(await verifyStandardWebhook(secret, { ...headers, 'webhook-timestamp': String(timestamp + 1) }, body)).toBe(false);
  });

  it('should sign the exact bytes, including multi-byte characters', () => {
    const a = signWebhook({ secret, id: 'm', timestamp, body: Buffer.from('{"t":"é"}') });
    const b = signWebhook({ secret, id: 'm', timestamp, body: Buffer.from('{"t":"e\u0301"}') });
    expect(a).not.toBe(b);
  });
});
