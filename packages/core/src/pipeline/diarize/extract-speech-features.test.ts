import { describe, expect, it } from 'vitest';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { COARSE_HOP_SAMPLES, extractSpeechFeatures, FRAMES_PER_SECOND, refineSpeechFeatures } from './extract-speech-features.ts';
import { standardizeFeatures } from './standardize-features.ts';

describe('extractSpeechFeatures', () => {
  const wavPath = audioPath('jfk.wav');
  const speech = [
    { start: 0.3, end: 2.1 },
    { start: 3.2, end: 5.9 },
  ];

  it('should give 16 ms frames by default, each region framed from its own start', async () => {
    const features = await extractSpeechFeatures(wavPath, speech);
    expect(features.hopSeconds).toBe(0.016);
    // (1.8 s − 32 ms) / 16 ms + 1 = 111 frames, (2.7 s − 32 ms) / 16 ms + 1 = 167 frames
    expect(Array.from(features.regions).filter((r) => r === 0)).toHaveLength(111);
    expect(Array.from(features.regions).filter((r) => r === 1)).toHaveLength(167);
    expect(features.times[0]).toBeCloseTo(0.3 + 0.016, 9);
    expect(features.values).toHaveLength(features.times.length * features.dimension);
    expect(standardizeFeatures(features).framesPerSecond).toBe(FRAMES_PER_SECOND);
  });

  it('should give every other frame of the 16 ms grid with COARSE_HOP_SAMPLES, the same values bit for bit', async () => {
    const fine = await extractSpeechFeatures(wavPath, speech);
    const coarse = await extractSpeechFeatures(wavPath, speech, undefined, COARSE_HOP_SAMPLES);
    expect(coarse.hopSeconds).toBe(0.032);
    expect(standardizeFeatures(coarse).framesPerSecond).toBe(FRAMES_PER_SECOND / 2);
    const d = fine.dimension;
    const evenFrames: number[] = [];
    for (let region = 0, offset = 0; region < speech.length; region += 1) {
      const count = Array.from(fine.regions).filter((r) => r === region).length;
      for (let i = 0; i < count; i += 2) evenFrames.push(offset + i);
      offset += count;
    }
    expect(coarse.times.length).toBe(evenFrames.length);
    evenFrames.forEach((frame, i) => {
      expect(coarse.times[i]).toBe(fine.times[frame]);
      expect(coarse.regions[i]).toBe(fine.regions[frame]);
      expect(Array.from(coarse.values.subarray(i * d, (i + 1) * d))).toEqual(Array.from(fine.values.subarray(frame * d, (frame + 1) * d)));
    });
  });

  it('should refine 32 ms features into exactly the 16 ms ones, regions of any length included', async () => {
    // 1.8 s and 2.7 s, one region of exactly one frame (32 ms), one just short of a second frame (47 ms), one of 50 ms.
    const regions = [...speech, { start: 6.0, end: 6.032 }, { start: 6.5, end: 6.547 }, { start: 7.0, end: 7.05 }];
    const fine = await extractSpeechFeatures(wavPath, regions);
    const coarse = await extractSpeechFeatures(wavPath, regions, undefined, COARSE_HOP_SAMPLES);
    const refined = await refineSpeechFeatures(wavPath, regions, coarse);
    expect(refined.hopSeconds).toBe(fine.hopSeconds);
    expect(Array.from(refined.times)).toEqual(Array.from(fine.times));
    expect(Array.from(refined.regions)).toEqual(Array.from(fine.regions));
    expect(Array.from(refined.values)).toEqual(Array.from(fine.values));
    expect(new Set(fine.regions).size).toBe(5);
    await expect(refineSpeechFeatures(wavPath, regions, fine)).rejects.toThrow(/needs 32 ms frames/);
  });
});
