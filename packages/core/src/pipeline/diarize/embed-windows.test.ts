import { describe, expect, it } from 'vitest';
import { detectSpeech } from '../vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from '../vad/locate-vad-model.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { cutWindows, embedWindows } from './embed-windows.ts';
import { extractSpeechFeatures } from './extract-speech-features.ts';
import { standardizeFeatures } from './standardize-features.ts';
import { componentPosteriors, trainBackgroundModel } from './train-background-model.ts';

describe('embedWindows', () => {
  it('should give the same unit-length Fisher vectors whether the posteriors are passed or computed region by region', async () => {
    const wavPath = audioPath('long_hifitts6097_concat_16k.wav');
    const speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
    const features = await extractSpeechFeatures(wavPath, speech);
    const frames = standardizeFeatures(features);
    const windows = cutWindows(features.regions);
    const model = await trainBackgroundModel(frames, 8);
    const regionByRegion = embedWindows(windows, frames, model);
    const whole = embedWindows(windows, frames, model, componentPosteriors(model, frames));
    expect(new Set(windows.map((w) => features.regions[w.first])).size).toBeGreaterThan(3);
    expect(regionByRegion).toHaveLength(windows.length);
    expect(regionByRegion.map((v) => Array.from(v))).toEqual(whole.map((v) => Array.from(v)));
    for (const vector of regionByRegion) {
      expect(vector).toHaveLength(8 * (1 + frames.dimension));
      expect(Math.hypot(...vector)).toBeCloseTo(1, 12);
    }
  });
});

describe('cutWindows', () => {
  const regions = (...lengths: number[]) => Uint32Array.from(lengths.flatMap((length, region) => Array<number>(length).fill(region)));

  it('should cut 1 s windows every 0.5 s of 16 ms frames, the last one ending at the region end, and skip regions under 0.5 s', () => {
    // 62.5 frames per second: windows of 63 frames every 31; a region of 100 frames, one of 20 (under 0.5 s), one of 40.
    expect(cutWindows(regions(100, 20, 40))).toEqual([
      { first: 0, end: 63 },
      { first: 31, end: 94 },
      { first: 37, end: 100 },
      { first: 120, end: 160 },
    ]);
  });

  it('should keep the lengths in seconds on 32 ms frames', () => {
    // 31.25 frames per second: windows of 31 frames every 16; 100 frames make 6 windows.
    const windows = cutWindows(regions(100, 10), 31.25);
    expect(windows).toEqual([
      { first: 0, end: 31 },
      { first: 16, end: 47 },
      { first: 32, end: 63 },
      { first: 48, end: 79 },
      { first: 64, end: 95 },
      { first: 69, end: 100 },
    ]);
  });
});
