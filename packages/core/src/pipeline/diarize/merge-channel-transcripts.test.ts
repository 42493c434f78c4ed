import { describe, expect, it } from 'vitest';
import { mergeChannelTranscripts } from './merge-channel-transcripts.ts';
import { segment, transcript } from './test-support/make-transcript.ts';

describe('mergeChannelTranscripts', () => {
  it('should make each channel one speaker, numbered by first appearance, and merge segments by time', () => {
    const left = transcript([segment(2, 4, 'left one'), segment(6, 7, 'left two')]);
    const right = {
      ...transcript([segment(1, 3, 'right one')]),
      language: 'de',
      languages: [{ code: 'de', name: 'German', probability: null, duration: null }],
    };
    const merged = mergeChannelTranscripts(left, right);
    expect(merged.segments.map((s) => [s.start, s.text, s.speaker])).toEqual([
      [1, 'right one', 'SPEAKER_1'],
      [2, 'left one', 'SPEAKER_2'],
      [6, 'left two', 'SPEAKER_2'],
    ]);
    expect(merged.speakers).toEqual([
      { label: 'SPEAKER_1', duration: 2 },
      { label: 'SPEAKER_2', duration: 3 },
    ]);
    expect(merged.vad).toEqual([
      { start: 1, end: 4 },
      { start: 6, end: 7 },
    ]);
    expect(merged.language).toBe('en'); // the left channel has more speech
    expect(merged.languages.map((l) => l.code)).toEqual(['en', 'de']);
  });

  it('should give one speaker when a channel has no speech', () => {
    const silent = { ...transcript([], []), language: null, languages: [] };
    const merged = mergeChannelTranscripts(silent, transcript([segment(1, 2, 'only right')]));
    expect(merged.segments.map((s) => s.speaker)).toEqual(['SPEAKER_1']);
    expect(merged.speakers).toEqual([{ label: 'SPEAKER_1', duration: 1 }]);
    expect(merged.language).toBe('en');
  });
});
