import { describe, expect, it } from 'vitest';
import { HttpStatusError } from './classify-http-failure.ts';
import { backoffDelayMs, retryHttpCall } from './retry-http-call.ts';

const policy = { retries: 2, baseDelayMs: 5, maxRetryAfterMs: 1000 };

function status(code: number, headers: Record<string, string> = {}): HttpStatusError {
  return new HttpStatusError(code, '', new Headers(headers));
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('retryHttpCall', () => {
  it('should give up after N retries with the last error, waiting base, then twice base', async () => {
    const errors = [status(503), status(502), status(500)];
    const waits: number[] = [];
    let attempts = 0;
    const error = await failureOf(
      retryHttpCall(
        async () => {
          throw errors[attempts++];
        },
        { ...policy, onRetry: (_n, delay) => waits.push(delay) },
      ),
    );
    expect(error).toBe(errors[2]);
    expect(attempts).toBe(3);
    expect(waits).toEqual([5, 10]);
  });

  it('should return the first success', async () => {
    let attempts = 0;
    expect(
      await retryHttpCall(async (n) => {
        attempts = n;
        if (n < 2) throw status(429);
        return 'done';
      }, policy),
    ).toBe('done');
    expect(attempts).toBe(2);
  });

  it.each([400, 404, 501])('should not retry HTTP %i', async (code) => {
    let attempts = 0;
    await failureOf(
      retryHttpCall(async () => {
        attempts += 1;
        throw status(code);
      }, policy),
    );
    expect(attempts).toBe(1);
  });

  it('should wait for a Retry-After within the cap and give up at once beyond it', async () => {
    const waits: number[] = [];
    await failureOf(
      retryHttpCall(
        async () => {
          throw status(429, { 'retry-after-ms': '20' });
        },
        { ...policy, retries: 1, onRetry: (_n, d) => waits.push(d) },
      ),
    );
    expect(waits).toEqual([20]);
    let attempts = 0;
    await failureOf(
      retryHttpCall(async () => {
        attempts += 1;
        throw status(429, { 'retry-after': '3600' });
      }, policy),
    );
    expect(attempts).toBe(1);
  });

  it('should stop when the wait would outlast the caller budget', async () => {
    let attempts = 0;
    await failureOf(
      retryHttpCall(
        async () => {
          attempts += 1;
          throw status(503);
        },
        { ...policy, remainingMs: () => 3 },
      ),
    );
    expect(attempts).toBe(1);
  });

  it('should retry transient connection failures only', async () => {
    let attempts = 0;
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    await failureOf(
      retryHttpCall(async () => {
        attempts += 1;
        throw reset;
      }, policy),
    );
    expect(attempts).toBe(3);
    attempts = 0;
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
    expect(
      await failureOf(
        retryHttpCall(async () => {
          attempts += 1;
          throw unknownHost;
        }, policy),
      ),
    ).toBe(unknownHost);
    expect(attempts).toBe(1);
  });

  it('should reject with the signal reason when aborted during a wait', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    setTimeout(() => controller.abort(reason), 20);
    const error = await failureOf(
      retryHttpCall(
        async () => {
          throw status(503);
        },
        { ...policy, baseDelayMs: 5000, signal: controller.signal },
      ),
    );
    expect(error).toBe(reason);
  });
});

describe('retryHttpCall with a longer backoff cap', () => {
  it('should cap its backoff at maxDelayMs, and retry until the signal when retries is Infinity', async () => {
    const waits: number[] = [];
    const controller = new AbortController();
    const reason = new Error('stopped');
    const error = await failureOf(
      retryHttpCall(
        async () => {
          throw status(503);
        },
        {
          retries: Infinity,
          baseDelayMs: 0.002, // 2 µs, doubled: the 14th retry asks for 16.4 ms, over a 10 ms cap
          maxDelayMs: 10,
          maxRetryAfterMs: 0,
          onRetry: (_n, delay) => {
            waits.push(delay);
            if (waits.length === 20) controller.abort(reason);
          },
          signal: controller.signal,
        },
      ),
    );
    expect(error).toBe(reason);
    expect(waits).toHaveLength(20);
    expect(waits.at(-1)).toBe(10);
    expect(waits[13]).toBe(10);
    expect(waits[12]).toBeCloseTo(8.192);
  });
});

describe('backoffDelayMs', () => {
  it('should double from the base, stay under the cap, and jitter by up to 25 %', () => {
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, 500))).toEqual([500, 1000, 2000]);
    expect(backoffDelayMs(10, 500)).toBe(8000);
    expect(backoffDelayMs(1, 400, true, () => 1)).toBe(300);
  });

  it('should cap at the given longest backoff', () => {
    expect([1, 2, 9, 10, 40].map((retry) => backoffDelayMs(retry, 1000, false, Math.random, 300_000))).toEqual([
      1000, 2000, 256_000, 300_000, 300_000,
    ]);
  });
});
