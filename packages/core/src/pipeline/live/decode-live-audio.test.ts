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

  it('should turn 1 s of 24 kHz into 1 s of 16 kHz, the same in chunks as whole, keeping a 440 Hz tone', () => {
    const input = sine(24_000, 1, 440);
    const whole = createStreamResampler(24_000, 16_000).push(input);
    const chunked = createStreamResampler(24_000, 16_000);
    const parts: number[] = [];
    for (let at = 0; at < input.length; at += 2400) parts.push(...chunked.push(input.subarray(at, at + 2400)));
    expect(Math.abs(whole.length - 16_000)).toBeLessThanOrEqual(2);
    expect(parts.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(parts[i]).toBeCloseTo(whole[i]!, 5);
    const expected = sine(16_000, 1, 440);
    let error = 0;
    for (let i = 10; i < whole.length - 10; i++) error = Math.max(error, Math.abs(whole[i]! - expected[i]!));
    expect(error).toBeLessThan(0.05);
  });

  it('should upsample 8 kHz to 16 kHz by interpolation', () => {
    const out = createStreamResampler(8_000, 16_000).push(Float32Array.from([0, 1, 0, -1, 0]));
    expect(Array.from(out).slice(0, 6)).toEqual([0, 0.5, 1, 0.5, 0, -0.5]);
  });
});
