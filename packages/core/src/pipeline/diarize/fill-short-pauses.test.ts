import { describe, expect, it } from 'vitest';
import { fillShortPauses, MIN_PAUSE_SECONDS } from './fill-short-pauses.ts';

describe('fillShortPauses', () => {
  it('should fill a pause of one speaker shorter than 0.58 s and keep longer ones', () => {
    const turns = [
      { start: 1, end: 2, speaker: 'SPEAKER_1' },
      { start: 2.5, end: 3, speaker: 'SPEAKER_1' },
      { start: 3.6, end: 4, speaker: 'SPEAKER_1' },
    ];
    expect(MIN_PAUSE_SECONDS).toBe(0.58);
    expect(fillShortPauses(turns)).toEqual([
      { start: 1, end: 3, speaker: 'SPEAKER_1' },
      { start: 3.6, end: 4, speaker: 'SPEAKER_1' },
    ]);
  });

  it('should not fill across another speaker nor change its input', () => {
    const turns = [
      { start: 1, end: 2, speaker: 'SPEAKER_1' },
      { start: 2.1, end: 2.3, speaker: 'SPEAKER_2' },
      { start: 2.4, end: 3, speaker: 'SPEAKER_1' },
    ];
    const copy = structuredClone(turns);
    expect(fillShortPauses(turns)).toEqual(turns);
    expect(turns).toEqual(copy);
  });
});
