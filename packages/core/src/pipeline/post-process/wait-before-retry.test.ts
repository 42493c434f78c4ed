import { describe, expect, it } from 'vitest';
import { readRetryAfter } from './classify-llm-failure.ts';
import { MAX_BACKOFF_MS, backoffDelayMs, waitBeforeRetry } from './wait-before-retry.ts';

describe('backoffDelayMs', () => {
  it('should double from the base delay, with up to 25 % jitter, and stay under the cap', () => {
    expect(backoffDelayMs(1, 500, () => 0)).toBe(500);
    expect(backoffDelayMs(2, 500, () => 0)).toBe(1000);
    expect(backoffDelayMs(3, 500, () => 1)).toBe(1500);
    expect(backoffDelayMs(10, 500, () => 0)).toBe(MAX_BACKOFF_MS);
  });
});

describe('waitBeforeRetry', () => {
  it('should stop waiting as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 20);
    await expect(waitBeforeRetry(60_000, controller.signal)).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(20_000); // far below the 60 s wait, whatever the load
  });
});

describe('readRetryAfter', () => {
  it('should read retry-after-ms, Retry-After in seconds and as an HTTP date', () => {
    expect(readRetryAfter(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(readRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    expect(readRetryAfter(new Headers({ 'retry-after': inTenSeconds }))).toBeGreaterThan(8_000);
    expect(readRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeNull();
    expect(readRetryAfter(undefined)).toBeNull();
  });
});
