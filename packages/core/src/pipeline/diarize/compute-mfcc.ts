/** MFCC settings; the diarizer's are in extract-speech-features.ts. */
export interface MfccSettings {
  /** Samples per frame, a power of two. */
  frameSamples: number;
  sampleRate: number;
  melBands: number;
  coefficients: number;
}

/**
 * Writes the MFCCs of `samples[at .. at + frameSamples)` to `out[outAt .. outAt + coefficients)`.
 * `samples` are 16-bit PCM values as they lie in the WAV file (int16 scale: meyda's MFCC takes
 * log(x + 1) of the mel energies, a true log only for large x), read in place with no copy to floats.
 */
export type MfccExtractor = (samples: Int16Array, at: number, out: Float32Array, outAt: number) => void;

/**
 * meyda 5.6's `mfcc` (Hann window, radix-2 FFT, power spectrum, triangular mel filters from 0 Hz to
 * Nyquist, log(energy + 1), DCT-II × 2) with precomputed twiddles, filters and cosines and no
 * allocation per frame: ~40× faster than `Meyda.extract('mfcc', …)` (about 5 µs per 512-sample frame).
 * The mel sums run two filters at a time and the DCT four coefficients at a time: each sum is still one
 * chain in meyda's order, but independent chains in one loop overlap their latencies (5.9 → 5.0 µs per
 * frame); the FFT's first butterfly of every stage skips its multiplications by exactly 1 + 0i.
 * The spectrum of the n real samples comes from one complex FFT of n/2 points (the standard
 * real-input split, e.g. Numerical Recipes §12.3) instead of meyda's n-point FFT of a signal with a
 * zero imaginary part; it differs from meyda's in the last bits of float64, which the float32
 * rounding of the amplitudes (meyda rounds its spectra and mel energies to float32; so does this)
 * removes: the values are still bit for bit meyda's on real speech (compute-mfcc.test.ts checks it).
 * One extractor per settings is built and then handed out again: V8 compiles a closure's loops
 * with its captured tables as constants only while its creation site has made one closure; from the
 * second on, every extractor reloads them in its loops (measured: 6 → 9–13 µs per frame from the
 * second recording a process diarizes on). Sharing is safe: a call is synchronous and overwrites all
 * of its scratch buffers before it reads them.
 * @returns the extractor for these settings, which reuses its own buffers.
 */
export function createMfccExtractor(settings: MfccSettings): MfccExtractor {
  const key = `${settings.frameSamples}/${settings.sampleRate}/${settings.melBands}/${settings.coefficients}`;
  let extractor = extractors.get(key);
  if (extractor === undefined) {
    extractor = buildExtractor(settings);
    extractors.set(key, extractor);
  }
  return extractor;
}

/** The extractors built so far, by settings (createMfccExtractor). */
const extractors = new Map<string, MfccExtractor>();

function buildExtractor(settings: MfccSettings): MfccExtractor {
  const n = settings.frameSamples;
  const half = n / 2;
  const window = hannWindow(n);
  // A real signal of n samples as n/2 complex ones (even samples real, odd imaginary): one FFT of
  // half the size, then the spectrum of the real signal is split out of it (realSpectrum).
  const reverse = bitReversal(half);
  const twiddles = fftTwiddles(half);
  const split = splitTwiddles(n);
  const filters = melFilters(Math.max(settings.melBands, settings.coefficients), settings.sampleRate, n);
  const cosines = dctCosines(filters.length);
  const [re, im] = [new Float64Array(half), new Float64Array(half)];
  const power = new Float32Array(half);
  const logged = new Float64Array(filters.length);
  return (samples, at, out, outAt) => {
    for (let i = 0; i < half; i += 1) {
      const j = reverse[i]!;
      re[j] = samples[at + 2 * i]! * window[2 * i]!;
      im[j] = samples[at + 2 * i + 1]! * window[2 * i + 1]!;
    }
    transform(re, im, twiddles);
    realPower(re, im, split, power);
    const bands = filters.length;
    let f = 0;
    for (; f + 1 < bands; f += 2) melEnergyPair(filters[f]!, filters[f + 1]!, power, logged, f);
    for (; f < bands; f += 1) logged[f] = melEnergy(filters[f]!, power);
    const coefficients = settings.coefficients;
    let k = 0;
    for (; k + 3 < coefficients; k += 4) {
      let [s0, s1, s2, s3] = [0, 0, 0, 0];
      const [c0, c1, c2, c3] = [k * bands, (k + 1) * bands, (k + 2) * bands, (k + 3) * bands];
      for (let b = 0; b < bands; b += 1) {
        const x = logged[b]!;
        s0 = s0 + x * cosines[c0 + b]!;
        s1 = s1 + x * cosines[c1 + b]!;
        s2 = s2 + x * cosines[c2 + b]!;
        s3 = s3 + x * cosines[c3 + b]!;
      }
      out[outAt + k] = 2 * s0;
      out[outAt + k + 1] = 2 * s1;
      out[outAt + k + 2] = 2 * s2;
      out[outAt + k + 3] = 2 * s3;
    }
    for (; k < coefficients; k += 1) {
      let sum = 0;
      for (let b = 0; b < bands; b += 1) sum = sum + logged[b]! * cosines[b + k * bands]!;
      out[outAt + k] = 2 * sum;
    }
  };
}

/**
 * The power |X[k]|² (rounded as meyda rounds its amplitudes to float32) for k < n/2 of a real
 * signal whose even samples were put in `re` and odd samples in `im` and transformed with an n/2-point
 * FFT: X[k] = (Z[k] + Z*[n/2−k]) / 2 − i·e^(−2πik/n)·(Z[k] − Z*[n/2−k]) / 2.
 */
function realPower(re: Float64Array, im: Float64Array, split: Float64Array, power: Float32Array): void {
  const half = re.length;
  for (let k = 0; k < half; k += 1) {
    const m = k === 0 ? 0 : half - k;
    const ar = re[k]!;
    const ai = im[k]!;
    const br = re[m]!;
    const bi = -im[m]!;
    const evenRe = (ar + br) / 2;
    const evenIm = (ai + bi) / 2;
    const oddRe = (ai - bi) / 2;
    const oddIm = -(ar - br) / 2;
    const wr = split[2 * k]!;
    const wi = split[2 * k + 1]!;
    const xr = evenRe + wr * oddRe - wi * oddIm;
    const xi = evenIm + wr * oddIm + wi * oddRe;
    const amplitude = Math.fround(Math.sqrt(xr * xr + xi * xi));
    power[k] = amplitude * amplitude;
  }
}

/** cos and sin of −2πk/n for k < n/2, interleaved: the twiddles that split a real signal's spectrum. */
function splitTwiddles(n: number): Float64Array {
  const twiddles = new Float64Array(n);
  for (let k = 0; k < n / 2; k += 1) {
    const x = (-2 * Math.PI * k) / n;
    [twiddles[2 * k], twiddles[2 * k + 1]] = [Math.cos(x), Math.sin(x)];
  }
  return twiddles;
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

/** melEnergy of two filters into logged[at], logged[at + 1]: two independent float32 chains in one loop, each in its own order. */
function melEnergyPair(a: MelFilter, b: MelFilter, power: Float32Array, logged: Float64Array, at: number): void {
  const [lengthA, lengthB] = [a.end - a.first, b.end - b.first];
  const both = Math.min(lengthA, lengthB);
  const [wa, wb, fa, fb] = [a.weights, b.weights, a.first, b.first];
  let [sa, sb] = [0, 0];
  let j = 0;
  for (; j < both; j += 1) {
    sa = Math.fround(sa + Math.fround(wa[j]! * power[fa + j]!));
    sb = Math.fround(sb + Math.fround(wb[j]! * power[fb + j]!));
  }
  for (let i = j; i < lengthA; i += 1) sa = Math.fround(sa + Math.fround(wa[i]! * power[fa + i]!));
  for (let i = j; i < lengthB; i += 1) sb = Math.fround(sb + Math.fround(wb[i]! * power[fb + i]!));
  logged[at] = Math.fround(Math.log(sa + 1));
  logged[at + 1] = Math.fround(Math.log(sb + 1));
}

/** In-place radix-2 decimation-in-time butterflies on bit-reversed input (meyda's fftjs order of operations). */
function transform(re: Float64Array, im: Float64Array, twiddles: readonly Float64Array[]): void {
  const n = re.length;
  for (let s = 0; s < twiddles.length; s += 1) {
    const stage = twiddles[s]!;
    const step = 1 << s;
    const span = step << 1;
    // k = 0: the twiddle is exactly 1 (cos 0, sin 0), so the product is the odd value itself (up to the sign of a zero).
    for (let even = 0; even < n; even += span) {
      const odd = even + step;
      const oddRe = re[odd]!;
      const oddIm = im[odd]!;
      const evenRe = re[even]!;
      const evenIm = im[even]!;
      re[odd] = evenRe - oddRe;
      im[odd] = evenIm - oddIm;
      re[even] = oddRe + evenRe;
      im[even] = oddIm + evenIm;
    }
    for (let k = 1; k < step; k += 1) {
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
