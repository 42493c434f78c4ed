import { describe, expect, it } from 'vitest';
import { framesToTurns } from './frames-to-turns.ts';
import { numberSpeakersByFirstAppearance } from './speaker-turn.ts';
import { clipToRegions, mergeRegions, subtractRegions } from './time-regions.ts';

describe('numberSpeakersByFirstAppearance', () => {
  it('should number speakers by their first turn, sort turns and merge touching turns of one speaker', () => {
    const turns = [
      { start: 5, end: 6, speaker: 'x' },
      { start: 1, end: 2, speaker: 'y' },
      { start: 2, end: 3, speaker: 'y' },
      { start: 3, end: 4, speaker: 'x' },
      { start: 7, end: 7, speaker: 'z' }, // empty: dropped
    ];
    expect(numberSpeakersByFirstAppearance(turns)).toEqual([
      { start: 1, end: 3, speaker: 'SPEAKER_1' },
      { start: 3, end: 4, speaker: 'SPEAKER_2' },
      { start: 5, end: 6, speaker: 'SPEAKER_2' },
    ]);
  });
});

describe('framesToTurns', () => {
  it('should cut turns halfway between frames, reach region edges and label short regions by the nearest frame', () => {
    const speech = [
      { start: 0, end: 1 },
      { start: 1.5, end: 1.51 },
      { start: 2, end: 3 },
    ];
    const times = Float64Array.from([0.1, 0.3, 0.5, 0.7, 2.2, 2.6]);
    const regions = Uint32Array.from([0, 0, 0, 0, 2, 2]);
    const labels = Int32Array.from([4, 4, 9, 9, 9, 4]);
    expect(framesToTurns(speech, times, regions, labels)).toEqual([
      { start: 0, end: 0.4, speaker: 'SPEAKER_1' },
      { start: 0.4, end: 1, speaker: 'SPEAKER_2' },
      { start: 1.5, end: 1.51, speaker: 'SPEAKER_2' }, // nearest frame: 2.2 s (label 9)
      { start: 2, end: 2.4, speaker: 'SPEAKER_2' },
      { start: 2.4, end: 3, speaker: 'SPEAKER_1' },
    ]);
  });
});

describe('time regions', () => {
  it('should merge, clip and subtract regions', () => {
    const merged = mergeRegions([
      { start: 3, end: 4 },
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 5, end: 5 },
    ]);
    expect(merged).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 4 },
    ]);
    expect(clipToRegions(merged, [{ start: 1.5, end: 3.5 }])).toEqual([
      { start: 1.5, end: 2 },
      { start: 3, end: 3.5 },
    ]);
    expect(
      subtractRegions(
        [{ start: 0, end: 10 }],
        [
          { start: 2, end: 3 },
          { start: 9, end: 11 },
        ],
      ),
    ).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 9 },
    ]);
  });
});
