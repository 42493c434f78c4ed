import { describe, expect, it } from 'vitest';
import type { Transcript } from '../contract/output/transcript-model.ts';
import { restoreSourceTimes } from './restore-source-times.ts';

const transcript: Transcript = {
  source: { length: 20, format: 'flac' },
  segments: [
    {
      start: 1,
      end: 2.5,
      text: 'before',
      speaker: 'SPEAKER_1',
      language: 'en',
      words: [{ start: 1, end: 2.5, text: 'before', confidence: 0.9 }],
    },
    {
      start: 10.1,
      end: 12.3,
      text: 'after it',
      speaker: 'SPEAKER_2',
      language: 'en',
      words: [
        { start: 10.1, end: 10.6, text: 'after', confidence: null },
        { start: 11, end: 12.3, text: 'it', confidence: null },
      ],
    },
  ],
  vad: [
    { start: 0.9, end: 2.6 },
    { start: 10, end: 12.4 },
  ],
  language: 'en',
  languages: [{ code: 'en', name: 'English', probability: null, duration: 4.1 }],
  speakers: [
    { label: 'SPEAKER_1', duration: 1.7 },
    { label: 'SPEAKER_2', duration: 2.4 },
  ],
};

describe('restoreSourceTimes', () => {
  it('should move every time after a cut later by the silence left out, and give the source length', () => {
    const restored = restoreSourceTimes(transcript, [{ at: 5.5, dropped: 3600.1 }], 3620.1);
    expect(restored.source).toEqual({ length: 3620.1, format: 'flac' });
    expect(restored.segments.map((s) => [s.start, s.end])).toEqual([
      [1, 2.5],
      [3610.2, 3612.4],
    ]);
    expect(restored.segments[1]!.words.map((w) => [w.start, w.end, w.text])).toEqual([
      [3610.2, 3610.7, 'after'],
      [3611.1, 3612.4, 'it'],
    ]);
    expect(restored.vad).toEqual([
      { start: 0.9, end: 2.6 },
      { start: 3610.1, end: 3612.5 },
    ]);
    expect(restored.speakers).toEqual(transcript.speakers); // speech is never cut
    expect(restored.languages).toEqual(transcript.languages);
    expect(restored.segments[1]).toMatchObject({ text: 'after it', speaker: 'SPEAKER_2', language: 'en' });
    expect(transcript.segments[1]!.start).toBe(10.1); // the argument is left alone
  });

  it('should only set the source length when nothing was cut', () => {
    const restored = restoreSourceTimes(transcript, [], 20.25);
    expect(restored).toEqual({ ...transcript, source: { length: 20.25, format: 'flac' } });
  });
});
