import { describe, expect, it } from 'vitest';
import { useApiFixture } from '../test-support/use-api-fixture.ts';
import { containsNul } from '@transcribe/core';

describe('containsNul', () => {
  it('should find a NUL character at any depth, in keys too', () => {
    expect(containsNul({ input: { prompt: 'a\u0000b' } })).toBe(true);
    expect(containsNul({ list: ['x', ['\u0000']] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    expect(containsNul({ input: { audio: 'https://x/y', speakers: 2 } })).toBe(false);
  });

  it('should walk a value nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = ['\u0000'];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(containsNul(deep)).toBe(true);
    let clean: unknown = 'x';
    for (let level = 0; level < 100_000; level += 1) clean = { a: clean };
    expect(containsNul(clean)).toBe(false);
  });
});

describe('NUL characters through the API', () => {
  const api = useApiFixture('pglite');

  it('should answer 404, not 500, for an id holding a NUL character', async () => {
    for (const path of ['/v1/predictions/%00', '/v1/predictions/%00/cancel']) {
      const response = await fetch(`${api.t.replicateBase}${path}`, {
        method: path.endsWith('cancel') ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${api.t.key}` },
      });
      expect(response.status).toBe(404);
    }
  });

  it('should refuse a NUL character in the input with 422 and a detail', async () => {
    const response = await api.create({ audio: 'https://example.invalid/a.wav', prompt: 'a\u0000b' });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/NUL/);
  });
});
