import { describe, expect, it } from 'vitest';
import { detectSpeech, detectSpeechLevels } from '../vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from '../vad/locate-vad-model.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { addQuietSpeech, QUIET_SPEECH_ONSET } from './add-quiet-speech.ts';
import type { TimeRegion } from './speaker-turn.ts';

const seconds = (regions: readonly TimeRegion[]) => regions.reduce((sum, region) => sum + region.end - region.start, 0);
const vad = (wavPath: string) => detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
const covers = (outer: readonly TimeRegion[], inner: TimeRegion) =>
  outer.some((region) => region.start <= inner.start && region.end >= inner.end);

describe('addQuietSpeech', () => {
  // Measured (docs/diarization.md): 2.08 s of VAD speech, 4.73 s with the quiet speech; FEO070's 24.4–25.4 s.
  it('should add the far-field speech the VAD missed in ami_debug_tst01, from the transcript VAD pass itself', async () => {
    const wavPath = audioPath('multispeaker/ami_debug_tst01.wav');
    const levels = await detectSpeechLevels(wavPath, { modelPath: resolveDefaultVadModelPath(), quietThreshold: QUIET_SPEECH_ONSET });
    expect(levels.speech).toEqual(await vad(wavPath)); // the transcript's intervals do not change
    const found = addQuietSpeech(levels.speech, levels.quietSpeech);
    for (const region of levels.speech) expect(covers(found, region)).toBe(true);
    expect(seconds(found)).toBeGreaterThan(seconds(levels.speech) + 1.5);
    expect(covers(found, { start: 24.5, end: 25.3 })).toBe(true);
  });

  it('should add only the parts outside the speech that last 0.25 s or more', () => {
    const speech = [
      { start: 1, end: 2 },
      { start: 3, end: 4 },
    ];
    const quiet = [
      { start: 0.5, end: 2.2 },
      { start: 2.5, end: 3.1 },
      { start: 5, end: 5.2 },
      { start: 6, end: 7 },
    ];
    expect(addQuietSpeech(speech, quiet)).toEqual([
      { start: 0.5, end: 2 },
      { start: 2.5, end: 4 },
      { start: 6, end: 7 },
    ]);
  });
});
