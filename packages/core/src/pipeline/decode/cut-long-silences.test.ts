import { describe, expect, it } from 'vitest';
import {
  KEPT_SILENCE_SECONDS,
  MIN_CUT_SECONDS,
  SILENCE_TOLERANCE,
  createSilenceCutter,
  mapToSourceSeconds,
  type SilenceCutterOptions,
} from './cut-long-silences.ts';

const RATE = 16000;

/** A deterministic noise-like signal (no flat 10 ms anywhere): amplitude ±`amplitude`. */
function sound(seconds: number, channels = 1, amplitude = 3000, seed = 1): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE) * channels);
  let state = seed;
  for (let i = 0; i < out.length; i += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[i] = ((state % (2 * amplitude + 1)) - amplitude) | 0;
  }
  return out;
}

/** `seconds` of a constant `value` per channel (digital silence at 0, or a DC offset). */
function flat(seconds: number, channels = 1, value = 0): Int16Array {
  return new Int16Array(Math.round(seconds * RATE) * channels).fill(value);
}

function join(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Byte-for-byte equality of two sample arrays (vitest's toEqual walks millions of elements slowly). */
function bytesOf(samples: Int16Array): Buffer {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

/** The cutter scaled down (0.6 s cut, 0.05 s kept at each end) for tests of its mechanics. */
const SMALL: SilenceCutterOptions = { minCutSeconds: 0.6, keptSeconds: 0.05 };

/** Runs the cutter over `samples` given as bytes in pieces of `piece` bytes (odd sizes split samples). */
function cut(samples: Int16Array, channels = 1, piece = 65_536, options: SilenceCutterOptions = {}) {
  const cutter = createSilenceCutter(channels, options);
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const kept: Int16Array[] = [];
  for (let at = 0; at < bytes.length; at += piece) kept.push(...cutter.push(bytes.slice(at, at + piece)));
  kept.push(...cutter.end());
  return { out: join(...kept), cutter };
}

describe('createSilenceCutter', () => {
  it('should pass a recording without a long silence through frame for frame', () => {
    const input = join(sound(2), flat(MIN_CUT_SECONDS - 0.5), sound(1.5)); // a silence just short of the cut
    const { out, cutter } = cut(input);
    expect(bytesOf(out).equals(bytesOf(input))).toBe(true);
    expect(cutter.cuts).toEqual([]);
    expect(cutter.framesIn).toBe(input.length);
    expect(cutter.framesOut).toBe(input.length);
  });

  it('should keep 3 s at each end of a silence of 30 s or more and record where the middle was', () => {
    const before = sound(2);
    const after = sound(1, 1, 3000, 7);
    const { out, cutter } = cut(join(before, flat(100), after));
    expect(bytesOf(out).equals(bytesOf(join(before, flat(2 * KEPT_SILENCE_SECONDS), after)))).toBe(true);
    expect(cutter.cuts).toEqual([{ at: 2 + KEPT_SILENCE_SECONDS, dropped: 100 - 2 * KEPT_SILENCE_SECONDS }]);
    expect(cutter.framesIn).toBe((2 + 100 + 1) * RATE);
    expect(cutter.framesOut).toBe((2 + 6 + 1) * RATE);
  });

  it('should give the same output whatever the pieces the bytes come in, even split mid-sample', () => {
    const input = join(flat(0.8), sound(0.3), flat(0.7, 1, -120), sound(0.01), flat(0.65), sound(0.2));
    const whole = cut(input, 1, input.byteLength, SMALL);
    for (const piece of [1, 3, 321, 4097]) {
      const split = cut(input, 1, piece, SMALL);
      expect(bytesOf(split.out).equals(bytesOf(whole.out)), `pieces of ${piece} bytes`).toBe(true);
      expect(split.cutter.cuts).toEqual(whole.cutter.cuts);
    }
    expect(whole.cutter.cuts).toHaveLength(3);
    expect(whole.cutter.framesOut).toBe(input.length - Math.round((0.7 + 0.6 + 0.55) * RATE));
  });

  it('should cut a constant offset (DC) and dither within ±8 steps, but not a signal that moves more', () => {
    const dithered = flat(40, 1, 500).map((value, i) => value + ((i * 7) % (2 * SILENCE_TOLERANCE + 1)) - SILENCE_TOLERANCE);
    expect(cut(dithered).cutter.cuts).toHaveLength(1);
    const quiet = sound(40, 1, SILENCE_TOLERANCE + 4); // −70 dBFS noise: not silence by this rule
    expect(cut(quiet).cutter.cuts).toEqual([]);
    // A slow ramp never stays within ±8 of its start for 30 s: kept whole, so no step is ever joined.
    const ramp = new Int16Array(40 * RATE).map((_, i) => Math.floor(i / RATE) * 2);
    expect(bytesOf(cut(ramp).out).equals(bytesOf(ramp))).toBe(true);
  });

  it('should cut a stereo silence only where both channels are silent, the same frames from each', () => {
    const left = join(flat(40), sound(1));
    const right = join(sound(20, 1, 3000, 3), flat(21));
    const stereo = new Int16Array(left.length * 2);
    for (let i = 0; i < left.length; i += 1) [stereo[2 * i], stereo[2 * i + 1]] = [left[i]!, right[i]!];
    expect(cut(stereo, 2).cutter.cuts).toEqual([]); // never 30 s of both at once

    const both = join(flat(50, 2), sound(1, 2));
    const { out, cutter } = cut(both, 2);
    expect(cutter.cuts).toEqual([{ at: 3, dropped: 44 }]);
    expect(bytesOf(out).equals(bytesOf(join(flat(6, 2), sound(1, 2))))).toBe(true);
  });

  it('should cut a recording that is silence from start to end to 6 s and say it holds no sound', () => {
    const { out, cutter } = cut(flat(3600, 2), 2);
    expect(out.length).toBe(6 * RATE * 2);
    expect(cutter.cuts).toEqual([{ at: 3, dropped: 3594 }]);
    expect(cutter.soundFrames).toBe(0);
    expect(cut(join(flat(60), sound(0.02))).cutter.soundFrames).toBe(0.02 * RATE);
  });

  it('should keep every frame when disabled, counting them as sound', () => {
    const input = join(flat(60), sound(1));
    const { out, cutter } = cut(input, 1, 65_536, { enabled: false });
    expect(bytesOf(out).equals(bytesOf(input))).toBe(true);
    expect(cutter.cuts).toEqual([]);
    expect(cutter.soundFrames).toBe(input.length);
  });

  it('should drop a last partial frame and refuse bad parameters', () => {
    const cutter = createSilenceCutter(2);
    expect(cutter.push(new Uint8Array(6))).toEqual([]);
    expect(join(...cutter.end())).toEqual(new Int16Array(2)); // one whole frame of the 1.5 given
    expect(() => createSilenceCutter(0)).toThrow(RangeError);
    expect(() => createSilenceCutter(9)).toThrow(RangeError);
    expect(() => createSilenceCutter(1, { minCutSeconds: 4, keptSeconds: 3 })).toThrow(RangeError);
  });
});

describe('mapToSourceSeconds', () => {
  it('should add what was left out before a time, a time at a cut counting as after it', () => {
    const toSource = mapToSourceSeconds([
      { at: 3, dropped: 100 },
      { at: 10, dropped: 0.5 },
    ]);
    expect([0, 2.999, 3, 9.5, 10, 20].map(toSource)).toEqual([0, 2.999, 103, 109.5, 110.5, 120.5]);
    expect(mapToSourceSeconds([])(42)).toBe(42);
  });

  it('should match the cutter: a sound after a cut lands where it was in the source', () => {
    const marker = sound(0.5, 1, 3000, 9);
    const input = join(sound(1), flat(45), marker, flat(33), marker);
    const { out, cutter } = cut(input);
    const toSource = mapToSourceSeconds(cutter.cuts);
    // Find each marker in the cut audio by its first samples, then map its time back.
    const starts: number[] = [];
    for (let i = 0; i + 4 <= out.length; i += 1)
      if (out[i] === marker[0] && out[i + 1] === marker[1] && out[i + 2] === marker[2] && out[i + 3] === marker[3]) starts.push(i / RATE);
    expect(starts.map(toSource)).toEqual([46, 79.5]);
  });
});
