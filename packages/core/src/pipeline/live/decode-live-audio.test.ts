import { describe, expect, it } from 'vitest';
import { createStreamResampler, decodeLiveAudio } from './decode-live-audio.ts';

describe('decodeLiveAudio', () => {
  it('should read PCM16 little-endian into [-1, 1]', () => {
    const bytes = Buffer.alloc(6);
    bytes.writeInt16LE(16384, 0);
    bytes.writeInt16LE(-32768, 2);
    bytes.writeInt16LE(0, 4);
    expect(Array.from(decodeLiveAudio(bytes, 'audio/pcm'))).toEqual([0.5, -1, 0]);
  });

  it('should refuse PCM16 of an odd number of bytes, naming audio', () => {
    expect(() => decodeLiveAudio(Buffer.alloc(3), 'audio/pcm')).toThrow(/even number of bytes/);
  });

  it('should expand G.711 μ-law and A-law as the recommendation gives (silence, full scale, sign)', () => {
    // μ-law 0xFF and A-law 0xD5 are the codes of (near) zero; 0x00 / 0x80 and 0x2A / 0xAA the extremes.
    const mu = decodeLiveAudio(Uint8Array.from([0xff, 0x7f, 0x00, 0x80]), 'audio/pcmu');
    expect(Array.from(mu).map((v) => Math.round(v * 32768))).toEqual([0, 0, -32124, 32124]);
    const a = decodeLiveAudio(Uint8Array.from([0xd5, 0x55, 0x2a, 0xaa]), 'audio/pcma');
    expect(Array.from(a).map((v) => Math.round(v * 32768))).toEqual([8, -8, -32256, 32256]);
  });
});

describe('createStreamResampler', () => {
  const sine = (rate: number, seconds: number, hz: number) =>
    Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.sin((2 * Math.PI * hz * i) / rate));
  const concat = (parts: Float32Array[]) => {
    const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) out.set(part, (at += part.length) - part.length);
    return out;
  };
  /** The largest difference from a sine at `hz` sampled at 16 kHz, away from the edges. */
  const worst = (samples: Float32Array, hz: number) => {
    const expected = sine(16_000, samples.length / 16_000, hz);
    let error = 0;
    for (let i = 100; i < samples.length - 100; i++) error = Math.max(error, Math.abs(samples[i]! - expected[i]!));
    return error;
  };
  const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length);

  it('should turn 1 s of 24 kHz into 1 s of 16 kHz, the same in chunks as whole, keeping tones of 440 Hz and 6 kHz', () => {
    for (const hz of [440, 6000]) {
      const input = sine(24_000, 1, hz);
      const whole = createStreamResampler(24_000, 16_000);
      const wholeOut = concat([whole.push(input), whole.flush()]);
      const chunked = createStreamResampler(24_000, 16_000);
      const parts: Float32Array[] = [];
      for (let at = 0; at < input.length; at += 2400) parts.push(chunked.push(input.subarray(at, at + 2400)));
      parts.push(chunked.flush());
      const chunkedOut = concat(parts);
      expect(wholeOut.length).toBe(16_000);
      expect(chunkedOut.length).toBe(16_000);
      for (let i = 0; i < wholeOut.length; i++) expect(chunkedOut[i]).toBeCloseTo(wholeOut[i]!, 5);
      expect(worst(wholeOut, hz)).toBeLessThan(0.02); // 6 kHz is in PocketSphinx's band (up to 6.8 kHz): kept
    }
  });

  it('should remove what 16 kHz cannot carry (a 10 kHz tone) instead of folding it to 6 kHz', () => {
    const r = createStreamResampler(24_000, 16_000);
    const out = concat([r.push(sine(24_000, 1, 10_000)), r.flush()]);
    expect(rms(out.subarray(100, -100))).toBeLessThan(0.01); // the tone's own RMS is 0.71
  });

  it('should upsample 8 kHz to 16 kHz keeping a 1 kHz tone, the same across a flush and later pushes', () => {
    const r = createStreamResampler(8_000, 16_000);
    const input = sine(8_000, 1, 1000);
    const out = concat([r.push(input.subarray(0, 4000)), r.flush(), r.push(input.subarray(4000)), r.flush()]);
    expect(out.length).toBe(16_000);
    expect(worst(out.subarray(0, 7900), 1000)).toBeLessThan(0.02);
  });
});
