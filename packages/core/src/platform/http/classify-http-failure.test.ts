import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { HttpStatusError, classifyHttpFailure, readRetryAfterMs } from './classify-http-failure.ts';

describe('classifyHttpFailure', () => {
  it.each([408, 429, 500, 502, 503, 504])('should retry HTTP %i', (status) => {
    expect(classifyHttpFailure(new HttpStatusError(status, '', new Headers()))).toMatchObject({ kind: 'status', retryable: true });
  });

  it.each([400, 401, 403, 404, 410, 501, 505])('should not retry HTTP %i', (status) => {
    expect(classifyHttpFailure(new HttpStatusError(status, '', new Headers()))).toMatchObject({ kind: 'status', retryable: false });
  });

  it('should find the code of an error wrapped by fetch', () => {
    const wrapped = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(classifyHttpFailure(wrapped)).toMatchObject({ kind: 'network', code: 'ECONNREFUSED', retryable: true });
  });

  it('should never retry an AppError or an error it does not know', () => {
    expect(classifyHttpFailure(new AppError('address_not_allowed', 'no'))).toMatchObject({ kind: 'other', retryable: false });
    expect(classifyHttpFailure(new Error('disk full'))).toMatchObject({ kind: 'other', retryable: false });
  });
});

describe('readRetryAfterMs', () => {
  it('should read retry-after-ms, delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(readRetryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(readRetryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(readRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(readRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(readRetryAfterMs(undefined, now)).toBeNull();
  });
});
