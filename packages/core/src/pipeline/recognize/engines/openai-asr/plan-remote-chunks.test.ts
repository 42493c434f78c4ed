import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { longestChunkSeconds, planRemoteChunks } from './plan-remote-chunks.ts';

const roomy = { maxRequestBytes: 24 * 1024 * 1024, maxChunkSeconds: 300 };

describe('longestChunkSeconds', () => {
  it('should fit 16 kHz 16-bit WAV (44-byte header, one spare sample) into the byte limit', () => {
    const seconds = longestChunkSeconds({ maxRequestBytes: 24 * 1024 * 1024, maxChunkSeconds: 10_000 });
    expect(seconds).toBeCloseTo(786.43, 2); // 24 MiB / 32 000 bytes per second
    expect(44 + 2 * (seconds * 16000 + 1)).toBeLessThanOrEqual(24 * 1024 * 1024);
  });

  it('should take maxChunkSeconds when it is the tighter limit', () => {
    expect(longestChunkSeconds({ maxRequestBytes: 24 * 1024 * 1024, maxChunkSeconds: 30 })).toBe(30);
  });
});

describe('planRemoteChunks', () => {
  it('should pad the speech and keep a short recording in one chunk', () => {
    const speech = [
      { start: 0.29, end: 2.28 },
      { start: 3.26, end: 4.46 },
      { start: 8.16, end: 10.98 },
    ];
    expect(planRemoteChunks(speech, 11, roomy)).toEqual([{ start: 0.04, end: 11 }]);
  });

  it('should return no chunks without speech', () => {
    expect(planRemoteChunks([], 60, roomy)).toEqual([]);
  });

  it('should cut at the pauses when the length limit is reached', () => {
    const speech = [
      { start: 1, end: 6 },
      { start: 7, end: 12 },
      { start: 13, end: 18 },
    ];
    expect(planRemoteChunks(speech, 20, { ...roomy, maxChunkSeconds: 12 })).toEqual([
      { start: 0.75, end: 12.25 },
      { start: 12.75, end: 18.25 },
    ]);
  });

  it('should always cut at a pause longer than maxPauseSeconds and not send the silence', () => {
    const speech = [
      { start: 1, end: 2 },
      { start: 30, end: 31 },
    ];
    expect(planRemoteChunks(speech, 40, { ...roomy, maxPauseSeconds: 5 })).toEqual([
      { start: 0.75, end: 2.25 },
      { start: 29.75, end: 31.25 },
    ]);
  });

  it('should stop padding at the middle of a short pause so chunks never overlap', () => {
    const speech = [
      { start: 1, end: 5 },
      { start: 5.2, end: 9 },
    ];
    expect(planRemoteChunks(speech, 10, { ...roomy, maxChunkSeconds: 6 })).toEqual([
      { start: 0.75, end: 5.1 },
      { start: 5.1, end: 9.25 },
    ]);
  });

  it('should cut speech longer than the limit into equal parts', () => {
    expect(planRemoteChunks([{ start: 0, end: 25 }], 25, { ...roomy, maxChunkSeconds: 10 })).toEqual([
      { start: 0, end: 8.333 },
      { start: 8.333, end: 16.667 },
      { start: 16.667, end: 25 },
    ]);
  });

  it('should keep every WAV under the byte limit', () => {
    const chunks = planRemoteChunks([{ start: 0, end: 100 }], 100, { maxRequestBytes: 320_044 + 2, maxChunkSeconds: 300 });
    expect(chunks.length).toBeGreaterThanOrEqual(10); // 10 s of WAV at most: 10 or 11 parts
    for (const chunk of chunks)
      expect(44 + 2 * (Math.round(chunk.end * 16000) - Math.round(chunk.start * 16000))).toBeLessThanOrEqual(320_046);
  });

  it('should refuse limits that leave less than a second per chunk', () => {
    expect(() => planRemoteChunks([], 0, { maxRequestBytes: 10_000, maxChunkSeconds: 300 })).toThrow(RangeError);
  });

  it('should cover all speech with sorted chunks within the limit, cut only at pauses', () => {
    const speechArbitrary = fc
      .array(fc.tuple(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 6000 })), { maxLength: 40 })
      .map((steps) => {
        let at = 0;
        return steps.map(([gap, length]): VadInterval => ({ start: (at += gap / 1000), end: (at += length / 1000) }));
      });
    fc.assert(
      fc.property(speechArbitrary, fc.integer({ min: 7, max: 40 }), (speech, maxChunkSeconds) => {
        const duration = (speech.at(-1)?.end ?? 0) + 1;
        const chunks = planRemoteChunks(speech, duration, { ...roomy, maxChunkSeconds });
        chunks.forEach((chunk, i) => {
          expect(chunk.end - chunk.start).toBeLessThanOrEqual(maxChunkSeconds + 1e-9);
          if (i > 0) expect(chunk.start).toBeGreaterThanOrEqual(chunks[i - 1]!.end);
          for (const edge of [chunk.start, chunk.end]) {
            expect(speech.some((s) => s.start < edge - 1e-9 && edge + 1e-9 < s.end)).toBe(false); // speech is under 6 s
          }
        });
        for (const s of speech) expect(chunks.some((c) => c.start <= s.start + 1e-9 && s.end <= c.end + 1e-9)).toBe(true);
      }),
    );
  });
});
