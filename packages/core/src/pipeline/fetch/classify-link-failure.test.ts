import { describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { classifyHttpFailure } from '../../platform/http/classify-http-failure.ts';
import { LinkNetworkError, LinkStatusError, describeLinkFailure } from './classify-link-failure.ts';

function networkError(code: string): LinkNetworkError {
  return new LinkNetworkError(Object.assign(new Error(code), { code }));
}

describe('link failures under the one classifier', () => {
  it.each([400, 401, 403, 404, 410, 501])('should not retry HTTP %i', (status) => {
    expect(classifyHttpFailure(new LinkStatusError(status, '', undefined)).retryable).toBe(false);
  });

  it.each([408, 429, 500, 502, 503, 504])('should retry HTTP %i', (status) => {
    expect(classifyHttpFailure(new LinkStatusError(status, '', undefined)).retryable).toBe(true);
  });

  it('should carry the Retry-After of the answer', () => {
    expect(classifyHttpFailure(new LinkStatusError(429, '', '2')).retryAfterMs).toBe(2000);
  });

  it('should retry a connection reset but not an unknown host', () => {
    expect(classifyHttpFailure(networkError('ECONNRESET')).retryable).toBe(true);
    expect(classifyHttpFailure(networkError('ENOTFOUND')).retryable).toBe(false);
  });

  it('should never retry errors it does not know', () => {
    expect(classifyHttpFailure(new Error('disk full')).retryable).toBe(false);
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
