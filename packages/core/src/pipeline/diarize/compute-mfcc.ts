/** MFCC settings; the diarizer's are in extract-speech-features.ts. */
export interface MfccSettings {
  /** Samples per frame, a power of two. */
  frameSamples: number;
  sampleRate: number;
  melBands: number;
  coefficients: number;
}

/** Writes the MFCCs of `samples[at .. at + frameSamples)` to `out[outAt .. outAt + coefficients)`. */
export type MfccExtractor = (samples: Float32Array, at: number, out: Float32Array, outAt: number) => void;

/**
 * meyda 5.6's `mfcc` (Hann window, radix-2 FFT, power spectrum, triangular mel filters from 0 Hz to
 * Nyquist, log(energy + 1), DCT-II × 2) computed with the same operations in the same order, so the
 * values are bit for bit meyda's (compute-mfcc.test.ts checks it), but with precomputed twiddles,
 * filters and cosines and no allocation per frame: ~25× faster than `Meyda.extract('mfcc', …)`.
 * meyda rounds its spectra and mel energies to float32; so does this.
 * @returns an extractor that reuses its own buffers (not reentrant; one per caller).
 */
export function createMfccExtractor(settings: MfccSettings): MfccExtractor {
  const n = settings.frameSamples;
  const half = n / 2;
  const window = hannWindow(n);
  const reverse = bitReversal(n);
  const twiddles = fftTwiddles(n);
  const filters = melFilters(Math.max(settings.melBands, settings.coefficients), settings.sampleRate, n);
  const cosines = dctCosines(filters.length);
  const [re, im] = [new Float64Array(n), new Float64Array(n)];
  const power = new Float32Array(half);
  const logged = new Float64Array(filters.length);
  return (samples, at, out, outAt) => {
    for (let i = 0; i < n; i += 1) re[reverse[i]!] = samples[at + i]! * window[i]!;
    im.fill(0);
    transform(re, im, twiddles);
    for (let i = 0; i < half; i += 1) {
      const amplitude = Math.fround(Math.sqrt(re[i]! * re[i]! + im[i]! * im[i]!));
      power[i] = amplitude * amplitude;
    }
    const bands = filters.length;
    for (let f = 0; f < bands; f += 1) logged[f] = melEnergy(filters[f]!, power);
    for (let k = 0; k < settings.coefficients; k += 1) {
      let sum = 0;
      for (let b = 0; b < bands; b += 1) sum = sum + logged[b]! * cosines[b + k * bands]!;
      out[outAt + k] = 2 * sum;
    }
  };
}

/** One triangular filter: its weights over `[first, end)` of the power spectrum. */
interface MelFilter {
  first: number;
  end: number;
  weights: Float64Array;
}

/** log(Σ weight × power + 1), summed in float32 as meyda does (zero weights add nothing). */
function melEnergy(filter: MelFilter, power: Float32Array): number {
  let sum = 0;
  for (let j = filter.first; j < filter.end; j += 1) sum = Math.fround(sum + Math.fround(filter.weights[j - filter.first]! * power[j]!));
  return Math.fround(Math.log(sum + 1));
}

/** In-place radix-2 decimation-in-time butterflies on bit-reversed input (meyda's fftjs order of operations). */
function transform(re: Float64Array, im: Float64Array, twiddles: readonly Float64Array[]): void {
  const n = re.length;
  for (let s = 0; s < twiddles.length; s += 1) {
    const stage = twiddles[s]!;
    const step = 1 << s;
    const span = step << 1;
    for (let k = 0; k < step; k += 1) {
      const wr = stage[2 * k]!;
      const wi = stage[2 * k + 1]!;
      for (let even = k; even < n; even += span) {
        const odd = even + step;
        const oddRe0 = re[odd]!;
        const oddIm0 = im[odd]!;
        const evenRe = re[even]!;
        const evenIm = im[even]!;
        const oddRe = wr * oddRe0 - wi * oddIm0;
        const oddIm = wr * oddIm0 + wi * oddRe0;
        re[odd] = evenRe - oddRe;
        im[odd] = evenIm - oddIm;
        re[even] = oddRe + evenRe;
        im[even] = oddIm + evenIm;
      }
    }
  }
}

function hannWindow(size: number): Float32Array {
  return Float32Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1)));
}

function bitReversal(n: number): Uint32Array {
  const bits = Math.log2(n);
  return Uint32Array.from({ length: n }, (_, i) => parseInt(i.toString(2).padStart(bits, '0').split('').reverse().join(''), 2));
}

/** Per stage (span 2, 4, …, n): cos and sin of −2πk/span for k < span/2, interleaved. */
function fftTwiddles(n: number): Float64Array[] {
  return Array.from({ length: Math.log2(n) }, (_, s) => {
    const span = 2 ** (s + 1);
    const stage = new Float64Array(span);
    for (let k = 0; k < span / 2; k += 1) {
      const x = (-2 * Math.PI * k) / span;
      [stage[2 * k], stage[2 * k + 1]] = [Math.cos(x), Math.sin(x)];
    }
    return stage;
  });
}

/** meyda's createMelFilterBank: edges equally spaced in mel (float32), bins floor((n + 1) f / rate). */
function melFilters(count: number, sampleRate: number, n: number): MelFilter[] {
  const melOf = (hz: number) => 1125 * Math.log(1 + hz / 700);
  const step = (melOf(sampleRate / 2) - melOf(0)) / (count + 1);
  const mels = Float32Array.from({ length: count + 2 }, (_, i) => i * step);
  const hertz = Float32Array.from(mels, (mel) => 700 * (Math.exp(mel / 1125) - 1));
  const bins = Array.from(hertz, (hz) => Math.floor(((n + 1) * hz) / sampleRate));
  return Array.from({ length: count }, (_, f) => {
    const [low, centre, high] = [bins[f]!, bins[f + 1]!, bins[f + 2]!];
    const end = Math.min(high, n / 2);
    const weights = new Float64Array(Math.max(0, end - low));
    for (let i = low; i < Math.min(centre, end); i += 1) weights[i - low] = (i - low) / (centre - low);
    for (let i = centre; i < end; i += 1) weights[i - low] = (high - i) / (high - centre);
    return { first: low, end: Math.max(low, end), weights };
  });
}

/** The `dct` package's cosine map: cos(π/L · (n + 0.5) · k) at `n + k·L`. */
function dctCosines(size: number): Float64Array {
  const cosines = new Float64Array(size * size);
  const piOverSize = Math.PI / size;
  for (let k = 0; k < size; k += 1) for (let n = 0; n < size; n += 1) cosines[n + k * size] = Math.cos(piOverSize * (n + 0.5) * k);
  return cosines;
}
