import { describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import { MAX_RECORDING_SECONDS, MAX_WORK_BYTES, assertDecodedWithin, planDecodeLimit } from './recording-length-limit.ts';

const caught = (run: () => void): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('no error thrown');
};

describe('planDecodeLimit', () => {
  it('should allow twice the stated length plus 60 s, and stop one second later', () => {
    const limit = planDecodeLimit(10, 2, 0);
    expect(limit.allowedSeconds).toBe(80);
    expect(limit.stopAfterSamples).toBe(81 * 16000);
    expect(limit.maxFileBytes).toBe(81 * 16000 * 2 + 4096);
    expect(limit.budgetBound).toBe(false);
  });

  it('should allow at least what the file could hold at 2 kbit/s, whatever its header says', () => {
    expect(planDecodeLimit(11, 1, 0, 1_000_000).allowedSeconds).toBe(4000); // a chained Ogg states only its last part
    expect(planDecodeLimit(10, 2, 0, 16_134).allowedSeconds).toBe(80); // the 16 kB bomb: 64.5 s by its size
    expect(planDecodeLimit(10, 1, 0, 300 * 2 ** 20).allowedSeconds).toBe(MAX_RECORDING_SECONDS);
  });

  it('should allow 24 h when the length is unknown (NaN or 0) or stated above 12 h', () => {
    for (const stated of [Number.NaN, 0, 13 * 3600]) expect(planDecodeLimit(stated, 1, 0).allowedSeconds).toBe(MAX_RECORDING_SECONDS);
  });

  it('should let two 24 h channel files fit in the disk budget next to a 300 MiB source', () => {
    const limit = planDecodeLimit(Number.NaN, 2, 300 * 2 ** 20);
    expect(limit.budgetBound).toBe(false);
    expect(2 * limit.maxFileBytes + 300 * 2 ** 20).toBeLessThanOrEqual(MAX_WORK_BYTES);
  });

  it('should give each output its share of what is left of the budget', () => {
    const used = MAX_WORK_BYTES - 100 * 2 ** 20;
    const limit = planDecodeLimit(Number.NaN, 2, used);
    expect(limit.budgetBound).toBe(true);
    expect(limit.maxFileBytes).toBe(50 * 2 ** 20);
  });

  it('should refuse with media_too_large when less than one second per output is left', () => {
    const error = caught(() => planDecodeLimit(10, 1, MAX_WORK_BYTES - 1000));
    expect(isAppError(error, 'media_too_large')).toBe(true);
    expect(error.message).toMatch(/needs more than the 6144 MiB of working space a prediction may use/);
  });
});

describe('assertDecodedWithin', () => {
  it('should pass a decode within the allowed length and under the byte cap', () => {
    const limit = planDecodeLimit(10, 1, 0);
    expect(() => assertDecodedWithin(limit, 80 * 16000, 80 * 32000 + 44)).not.toThrow();
  });

  it('should refuse a stream that ran past its stated length as longer than its header says', () => {
    const limit = planDecodeLimit(10, 2, 0);
    const error = caught(() => assertDecodedWithin(limit, limit.stopAfterSamples, limit.stopAfterSamples * 2 + 44));
    expect(isAppError(error, 'media_unreadable')).toBe(true);
    expect(error.message).toMatch(/^The recording is longer than its header says: it states 10 s, but its audio runs past 80 s/);
  });

  it('should refuse a stream of unknown length that ran past 24 h with the hours message', () => {
    const limit = planDecodeLimit(Number.NaN, 1, 0);
    const error = caught(() => assertDecodedWithin(limit, limit.stopAfterSamples, limit.stopAfterSamples * 2 + 44));
    expect(isAppError(error, 'media_too_large')).toBe(true);
    expect(error.message).toMatch(/at most 24 hours/);
  });

  it('should refuse a file that reached the budget share with the disk budget message', () => {
    const limit = planDecodeLimit(Number.NaN, 1, MAX_WORK_BYTES - 10 * 2 ** 20);
    const error = caught(() => assertDecodedWithin(limit, 100, limit.maxFileBytes));
    expect(isAppError(error, 'media_too_large')).toBe(true);
    expect(error.message).toMatch(/working space/);
  });
});
