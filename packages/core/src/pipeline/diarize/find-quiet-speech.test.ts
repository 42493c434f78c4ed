import { describe, expect, it } from 'vitest';
import { detectSpeech } from '../vad/detect-speech.ts';
import { resolveDefaultVadModelPath } from '../vad/locate-vad-model.ts';
import { audioPath } from '../recognize/shared-audio.test-helper.ts';
import { findQuietSpeech } from './find-quiet-speech.ts';
import type { TimeRegion } from './speaker-turn.ts';

const seconds = (regions: readonly TimeRegion[]) => regions.reduce((sum, region) => sum + region.end - region.start, 0);
const vad = (wavPath: string) => detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
const covers = (outer: readonly TimeRegion[], inner: TimeRegion) => outer.some((region) => region.start <= inner.start && region.end >= inner.end);

describe('findQuietSpeech', () => {
  // Measured (docs/diarization.md): 2.08 s of VAD speech, 4.19 s with the quiet speech; FEO070's 24.4–25.4 s.
  it('should add the far-field speech the VAD missed in ami_debug_tst01 and keep every VAD interval', async () => {
    const wavPath = audioPath('multispeaker/ami_debug_tst01.wav');
    const speech = await vad(wavPath);
    const found = await findQuietSpeech(wavPath, speech);
    for (const region of speech) expect(covers(found, region)).toBe(true);
    expect(seconds(found)).toBeGreaterThan(seconds(speech) + 1.5);
    expect(covers(found, { start: 24.5, end: 25.3 })).toBe(true);
  });

  it('should add nothing to a clean recording (jfk.wav)', async () => {
    const wavPath = audioPath('jfk.wav');
    const speech = await vad(wavPath);
    expect(await findQuietSpeech(wavPath, speech)).toEqual(speech);
  });

  it('should give the VAD intervals back when the model cannot be loaded', async () => {
    const wavPath = audioPath('multispeaker/ami_debug_tst01.wav');
    const speech = [{ start: 26.814, end: 27.692 }];
    expect(await findQuietSpeech(wavPath, speech, { modelPath: '/nonexistent/silero_vad.onnx' })).toEqual(speech);
  });
});
