import { describe, expect, it } from 'vitest';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { COARSE_HOP_SAMPLES, extractSpeechFeatures, FRAMES_PER_SECOND } from './extract-speech-features.ts';
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
});
