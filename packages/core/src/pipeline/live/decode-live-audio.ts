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
  push(samples: Float32Array): Float32Array;
}

/**
 * Linear-interpolation resampler from `inRate` to `outRate` (Hz) that keeps its position between
 * chunks. Going down from 24 kHz it first averages each output's span of input (a box filter), so
 * energy above 8 kHz does not fold back into the band the recognisers use. Enough for speech
 * recognition at 16 kHz (sherpa-onnx's LinearResampler is linear too).
 */
export function createStreamResampler(inRate: number, outRate: number): StreamResampler {
  if (inRate === outRate) return { push: (samples) => samples };
  const step = inRate / outRate; // input samples per output sample
  let carry = new Float32Array(0); // input not yet consumed, starting at `position`'s floor
  let position = 0; // of the next output sample, in input samples from carry[0]
  return {
    push(samples) {
      const input = new Float32Array(carry.length + samples.length);
      input.set(carry);
      input.set(samples, carry.length);
      const out: number[] = [];
      const span = step > 1 ? step : 0;
      while (position + 1 + span / 2 < input.length) {
        if (span > 0) {
          const from = Math.max(0, Math.floor(position - span / 2));
          const to = Math.min(input.length - 1, Math.ceil(position + span / 2));
          let sum = 0;
          for (let k = from; k <= to; k++) sum += input[k]!;
          out.push(sum / (to - from + 1));
        } else {
          const i = Math.floor(position);
          const frac = position - i;
          out.push(input[i]! * (1 - frac) + input[i + 1]! * frac);
        }
        position += step;
      }
      const keepFrom = Math.max(0, Math.floor(position - span / 2) - 1);
      carry = input.slice(keepFrom);
      position -= keepFrom;
      return Float32Array.from(out);
    },
  };
}
