import { describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import {
  DEFAULT_RETRY_LIMITS,
  LinkNetworkError,
  LinkStatusError,
  describeLinkFailure,
  parseRetryAfterMs,
  retryDelayMs,
} from './classify-link-failure.ts';

function networkError(code: string): LinkNetworkError {
  return new LinkNetworkError(Object.assign(new Error(code), { code }));
}

describe('retryDelayMs', () => {
  it('should back off 0.5 s then 1 s for a 503, and give up after the third attempt', () => {
    const error = new LinkStatusError(503, 'Service Unavailable', undefined);
    expect([1, 2, 3].map((attempt) => retryDelayMs(error, attempt))).toEqual([500, 1000, null]);
  });

  it.each([400, 401, 403, 404, 410, 501])('should not retry HTTP %i', (status) => {
    expect(retryDelayMs(new LinkStatusError(status, '', undefined), 1)).toBeNull();
  });

  it.each([408, 429, 500, 502, 504])('should retry HTTP %i', (status) => {
    expect(retryDelayMs(new LinkStatusError(status, '', undefined), 1)).toBe(500);
  });

  it('should honour a Retry-After within the cap and give up beyond it', () => {
    expect(retryDelayMs(new LinkStatusError(429, '', '2'), 1)).toBe(2000);
    expect(retryDelayMs(new LinkStatusError(429, '', '3600'), 1)).toBeNull();
  });

  it('should retry a connection reset but not an unknown host', () => {
    expect(retryDelayMs(networkError('ECONNRESET'), 1)).toBe(500);
    expect(retryDelayMs(networkError('ENOTFOUND'), 1)).toBeNull();
  });

  it('should never retry errors it does not know', () => {
    expect(retryDelayMs(new Error('disk full'), 1, DEFAULT_RETRY_LIMITS)).toBeNull();
  });
});

describe('parseRetryAfterMs', () => {
  it('should read delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs('7', now)).toBe(7000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});

describe('describeLinkFailure', () => {
  it('should say which status the link answered', () => {
    const error = describeLinkFailure(new LinkStatusError(404, 'Not Found', undefined), 'example.com');
    expect(isAppError(error, 'upstream_refused')).toBe(true);
    expect((error as Error).message).toBe('The link answered HTTP 404 Not Found.');
  });

  it('should fill in the standard reason when the server sends none', () => {
    const error = describeLinkFailure(new LinkStatusError(503, '', undefined), 'example.com');
    expect((error as Error).message).toBe('The link answered HTTP 503 Service Unavailable.');
  });

  it('should turn a DNS failure into upstream_unreachable naming the host', () => {
    const error = describeLinkFailure(networkError('ENOTFOUND'), 'nope.invalid');
    expect(isAppError(error, 'upstream_unreachable')).toBe(true);
    expect((error as Error).message).toContain('nope.invalid');
  });

  it('should pass other errors through unchanged', () => {
    const original = new Error('EACCES');
    expect(describeLinkFailure(original, 'example.com')).toBe(original);
  });
});
