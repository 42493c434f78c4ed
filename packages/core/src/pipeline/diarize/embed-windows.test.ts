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
