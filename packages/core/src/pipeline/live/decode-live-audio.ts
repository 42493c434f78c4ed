import { AppError } from '../../platform/errors/app-error.ts';

/**
 * Input audio formats of OpenAI's Realtime API (`audio/pcm` at 24 kHz, G.711 `audio/pcmu` and
 * `audio/pcma` at 8 kHz; API reference, RealtimeAudioFormats; the beta names are `pcm16`,
 * `g711_ulaw`, `g711_alaw`).
 */
export type LiveAudioFormat = 'audio/pcm' | 'audio/pcmu' | 'audio/pcma';

/** Sample rate of each format, Hz: "Only a 24kHz sample rate is supported" for audio/pcm; G.711 is 8 kHz (ITU-T G.711). */
export const LIVE_FORMAT_RATE: Readonly<Record<LiveAudioFormat, number>> = {
  'audio/pcm': 24_000,
  'audio/pcmu': 8_000,
  'audio/pcma': 8_000,
};

/**
 * Decodes one chunk of live audio into samples in [-1, 1] at the format's rate (LIVE_FORMAT_RATE):
 * `audio/pcm` is 16-bit signed little-endian mono; `audio/pcmu` and `audio/pcma` are ITU-T G.711
 * μ-law and A-law, one byte per sample.
 * @throws AppError `invalid_input` (param `audio`) for PCM16 of an odd number of bytes.
 */
export function decodeLiveAudio(bytes: Uint8Array, format: LiveAudioFormat): Float32Array {
  if (format === 'audio/pcm') {
    if (bytes.length % 2 !== 0) throw new AppError('invalid_input', 'PCM16 audio must have an even number of bytes.', { param: 'audio' });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const samples = new Float32Array(bytes.length / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true) / 32768;
    return samples;
  }
  const table = format === 'audio/pcmu' ? MU_LAW : A_LAW;
  const samples = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) samples[i] = table[bytes[i]!]! / 32768;
  return samples;
}

/** ITU-T G.711 μ-law expansion (the reference decoder of the recommendation's Table 2a). */
function muLawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

/** ITU-T G.711 A-law expansion (Table 1a; even bits inverted with 0x55). */
function aLawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a & 0x70) >> 4;
  let magnitude = (a & 0x0f) << 4;
  magnitude += exponent === 0 ? 8 : 0x108;
  if (exponent > 1) magnitude <<= exponent - 1;
  return a & 0x80 ? magnitude : -magnitude;
}

const MU_LAW = Int16Array.from({ length: 256 }, (_, i) => muLawToLinear(i));
const A_LAW = Int16Array.from({ length: 256 }, (_, i) => aLawToLinear(i));

/** A resampler fed chunk by chunk: its output is the same as resampling the chunks joined. */
export interface StreamResampler {
  /** Takes the next input samples; returns the output samples they complete (a few wait for the filter's look-ahead). */
  push(samples: Float32Array): Float32Array;
  /**
   * Returns the output samples still held back for the filter's look-ahead (as if silence followed),
   * so the output covers all the input given; call it where the input ends for now (a commit).
   * Later pushes go on from there.
   */
  flush(): Float32Array;
}

/** Zero crossings of the sinc on each side of the filter's centre (the filter is 2 × this / cutoff input samples long). */
const SINC_ZERO_CROSSINGS = 16;
/** Passband edge as a fraction of the lower Nyquist frequency: 24 kHz → 16 kHz passes up to 7.4 kHz, above PocketSphinx's 6.8 kHz filter bank. */
const CUTOFF = 0.92;
/** Kaiser window β: about 80 dB of stop-band attenuation (Kaiser's formula 0.1102 (A − 8.7)). */
const KAISER_BETA = 8;

/**
 * A band-limited (windowed-sinc, Kaiser window) resampler from `inRate` to `outRate` (Hz, integers)
 * that keeps its position and history between chunks, polyphase over the rates' reduced ratio
 * (24 → 16 kHz: 2 phases; 8 → 16 kHz: 2). The low-pass cuts at `CUTOFF` × the lower Nyquist frequency,
 * so nothing above 8 kHz folds back when going down, and G.711's 4 kHz band is interpolated without
 * images when going up (the method of libsamplerate / SoX, J. O. Smith's "Digital Audio Resampling").
 * Each output sample lags its input by the filter's half-length (under 1 ms); `flush()` gives the rest.
 * @throws Error when a rate is not a positive integer.
 */
export function createStreamResampler(inRate: number, outRate: number): StreamResampler {
  if (!Number.isInteger(inRate) || !Number.isInteger(outRate) || inRate <= 0 || outRate <= 0) {
    throw new Error(`Resampling needs positive integer rates, not ${inRate} → ${outRate}`);
  }
  if (inRate === outRate) return { push: (samples) => samples, flush: () => new Float32Array(0) };
  const divisor = gcd(inRate, outRate);
  const up = outRate / divisor; // output sample n sits at input position n × down / up
  const down = inRate / divisor;
  const fc = 0.5 * Math.min(1, outRate / inRate) * CUTOFF; // cycles per input sample
  const half = Math.ceil(SINC_ZERO_CROSSINGS / (2 * fc)); // taps on each side, input samples
  // phases[p][j]: weight of input sample i0 - half + 1 + j for an output at i0 + p / up
  const phases = Array.from({ length: up }, (_, p) => {
    const weights = new Float32Array(2 * half);
    let sum = 0;
    for (let j = 0; j < 2 * half; j++) {
      const d = p / up + half - 1 - j; // distance from the output's position to this tap, input samples
      const x = d / half;
      const w = Math.abs(x) >= 1 ? 0 : (2 * fc * sinc(2 * fc * d) * besselI0(KAISER_BETA * Math.sqrt(1 - x * x))) / besselI0(KAISER_BETA);
      weights[j] = w;
      sum += w;
    }
    for (let j = 0; j < weights.length; j++) weights[j]! /= sum; // unit gain at 0 Hz in every phase
    return weights;
  });
  // history: input from absolute sample `base` on; starts with `half` zeros before the first sample
  let history = new Float32Array(half);
  let base = -half;
  let next = 0; // the next output's position × up, absolute input samples
  const render = (input: Float32Array, inputBase: number, limit: number): Float32Array => {
    const out: number[] = [];
    for (;;) {
      const i0 = Math.floor(next / up);
      if (i0 + half >= inputBase + input.length || next >= limit) break; // needs input not given yet
      const weights = phases[next - i0 * up]!;
      const first = i0 - half + 1 - inputBase;
      let acc = 0;
      for (let j = 0; j < weights.length; j++) acc += weights[j]! * input[first + j]!;
      out.push(acc);
      next += down;
    }
    return Float32Array.from(out);
  };
  const keepFrom = () => {
    const needed = Math.floor(next / up) - half + 1; // the next output's first tap
    if (needed > base) {
      history = history.slice(needed - base);
      base = needed;
    }
  };
  return {
    push(samples) {
      const input = new Float32Array(history.length + samples.length);
      input.set(history);
      input.set(samples, history.length);
      history = input;
      const out = render(history, base, Infinity);
      keepFrom();
      return out;
    },
    flush() {
      const end = base + history.length; // outputs before this input position are owed
      const padded = new Float32Array(history.length + half + 1);
      padded.set(history);
      const out = render(padded, base, end * up);
      keepFrom();
      return out;
    },
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function sinc(x: number): number {
  return x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
}

/** The modified Bessel function of the first kind, order 0 (its power series; converges fast for the β used). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}
