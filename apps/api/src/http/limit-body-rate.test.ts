import { describe, expect, it } from 'vitest';
import { DEFAULT_BODY_RATE, fellBehind, longestBodyMs, slowBodyDetail } from './limit-body-rate.ts';
import { PARTIAL_UPLOAD_STALE_MS, partialUploadStaleMs } from './sweep-partial-uploads.ts';

const MiB = 1024 * 1024;

describe('the request body rule (defaults: 60 s free, then 16 KiB/s over each last 60 s)', () => {
  it('should let the reviewed upload through: 70 MB at 200 KB/s, cut at 318 s by the old fixed 300 s', () => {
    // At 200 KB/s every window of 60 s holds 12 MB, far above the 960 KiB the rule asks; the size
    // does not matter, so 70 MB (350 s) passes like 300 MiB (26 min) would.
    expect(fellBehind(200_000 * 60, 60_000, DEFAULT_BODY_RATE)).toBe(false);
    expect(longestBodyMs(70_000_000, DEFAULT_BODY_RATE)).toBeGreaterThan(70_000_000 / 200);
  });

  it('should cut a body that trickles or stalls for a window', () => {
    expect(fellBehind(15 * 1024 * 60, 60_000, DEFAULT_BODY_RATE)).toBe(true); // 15 KiB/s
    expect(fellBehind(16 * 1024 * 60, 60_000, DEFAULT_BODY_RATE)).toBe(false); // exactly the minimum
    expect(fellBehind(0, 60_000, DEFAULT_BODY_RATE)).toBe(true);
  });

  it('should bound the longest body: a 300 MiB upload at the minimum rate, plus two windows', () => {
    expect(longestBodyMs(300 * MiB, DEFAULT_BODY_RATE)).toBe(120_000 + 19_200_000); // 5 h 22 min
  });

  it('should say what happened and what to do, in words', () => {
    expect(slowBodyDetail(3 * 1024, 61_200, DEFAULT_BODY_RATE)).toBe(
      'The request body came too slowly: 3 KiB in the last 61 s, below the 16 KiB/s this service needs after the first 60 s, so nothing was kept. Send it again over a faster connection, or give a link to the recording instead of uploading it.',
    );
  });

  it("should keep a live data: upload's partial file from the sweeper, however slow the rule allows it to be", () => {
    expect(partialUploadStaleMs(DEFAULT_BODY_RATE)).toBe(PARTIAL_UPLOAD_STALE_MS);
    // 5 minutes free and 1 KiB/s: a body may go quiet for 10 min, then send 1 MiB of JSON in 17 min.
    const slowest = { windowMs: 300_000, minBytesPerSecond: 1024 };
    expect(partialUploadStaleMs(slowest)).toBe(2 * (600_000 + 1_024_000));
  });
});
