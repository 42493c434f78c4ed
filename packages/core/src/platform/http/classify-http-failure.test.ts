import { S3ServiceException } from '@aws-sdk/client-s3';
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

  it('should read the status and Retry-After of an AWS SDK error', () => {
    const answered = (status: number, headers: Record<string, string> = {}) =>
      Object.assign(new S3ServiceException({ name: 'SlowDown', $fault: 'server', $metadata: { httpStatusCode: status } }), {
        $response: { statusCode: status, headers, body: undefined },
      });
    expect(classifyHttpFailure(answered(503, { 'retry-after': '2' }))).toEqual({
      kind: 'status',
      status: 503,
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(classifyHttpFailure(answered(500))).toEqual({ kind: 'status', status: 500, retryable: true, retryAfterMs: null });
    expect(classifyHttpFailure(answered(403))).toMatchObject({ kind: 'status', status: 403, retryable: false });
    expect(classifyHttpFailure(answered(501))).toMatchObject({ kind: 'status', status: 501, retryable: false });
  });

  it("should retry the AWS SDK HTTP handler timeouts but not the caller's own AbortSignal.timeout", () => {
    const handlerTimeout = Object.assign(new Error('the request socket timed out after 50 ms of inactivity'), { name: 'TimeoutError' });
    expect(classifyHttpFailure(handlerTimeout)).toEqual({ kind: 'timeout', retryable: true, retryAfterMs: null });
    expect(classifyHttpFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toMatchObject({
      kind: 'other',
      retryable: false,
    });
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
