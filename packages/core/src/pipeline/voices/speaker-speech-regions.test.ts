import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../contract/output/transcript-model.ts';
import { chooseExcerpt } from './cut-speech-excerpt.ts';
import { regionSeconds, speakerSpeechRegions } from './speaker-speech-regions.ts';

const segment = (start: number, end: number, speaker: string | null): TranscriptSegment => ({
  start,
  end,
  speaker,
  text: 'x',
  language: null,
  words: [],
});

describe('a speaker’s speech in a transcript', () => {
  it('should cut each label’s segments to the detected speech, merged, labels in order of first appearance', () => {
    const regions = speakerSpeechRegions({
      segments: [segment(0, 4, 'SPEAKER_2'), segment(4, 6, 'SPEAKER_1'), segment(6, 9, 'SPEAKER_2'), segment(9, 10, null)],
      vad: [
        { start: 0.5, end: 3 },
        { start: 3.5, end: 8 },
        { start: 8.5, end: 10 },
      ],
    });
    expect([...regions.keys()]).toEqual(['SPEAKER_2', 'SPEAKER_1']);
    expect(regions.get('SPEAKER_2')).toEqual([
      { start: 0.5, end: 3 },
      { start: 3.5, end: 4 },
      { start: 6, end: 8 },
      { start: 8.5, end: 9 },
    ]);
    expect(regions.get('SPEAKER_1')).toEqual([{ start: 4, end: 6 }]);
    expect(regionSeconds(regions.get('SPEAKER_2')!)).toBeCloseTo(5.5);
  });

  it('should take the segments whole when the transcript has no VAD intervals, and merge touching ones', () => {
    const regions = speakerSpeechRegions({ segments: [segment(0, 2, 'A1'), segment(2, 3, 'A1'), segment(5, 6, 'A1')], vad: [] });
    expect(regions.get('A1')).toEqual([
      { start: 0, end: 3 },
      { start: 5, end: 6 },
    ]);
  });

  it('should take the excerpt from the middle of the longest region, adding the next longest when it is short', () => {
    expect(
      chooseExcerpt(
        [
          { start: 0, end: 2 },
          { start: 10, end: 20 },
        ],
        5,
      ),
    ).toEqual([{ start: 12.5, end: 17.5 }]);
    expect(
      chooseExcerpt(
        [
          { start: 0, end: 2 },
          { start: 4, end: 7 },
          { start: 9, end: 10 },
        ],
        5,
      ),
    ).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 7 },
    ]);
    expect(chooseExcerpt([{ start: 1, end: 2.5 }], 5)).toEqual([{ start: 1, end: 2.5 }]);
    expect(chooseExcerpt([], 5)).toEqual([]);
  });
});
