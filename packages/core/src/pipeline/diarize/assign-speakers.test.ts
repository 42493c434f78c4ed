import { describe, expect, it } from 'vitest';
import { assignSpeakers } from './assign-speakers.ts';
import { segment, transcript, word } from './test-support/make-transcript.ts';

describe('assignSpeakers', () => {
  const turns = [
    { start: 0, end: 4, speaker: 'SPEAKER_2' },
    { start: 4, end: 9, speaker: 'SPEAKER_1' },
    { start: 9, end: 12, speaker: 'SPEAKER_2' },
  ];

  it('should split a segment where its words change speaker and renumber labels by first appearance', () => {
    const words = [word(1, 1.5, 'hello'), word(2, 3.9, 'there'), word(4.1, 5, 'hi'), word(5.2, 6, 'back')];
    const result = assignSpeakers(transcript([segment(0.5, 6.5, 'Hello there, hi back.', words)]), turns);
    expect(result.segments).toEqual([
      { start: 0.5, end: 3.9, text: 'hello there', speaker: 'SPEAKER_1', language: 'en', words: words.slice(0, 2) },
      { start: 4.1, end: 6.5, text: 'hi back', speaker: 'SPEAKER_2', language: 'en', words: words.slice(2) },
    ]);
    // SPEAKER_2 of the turns spoke first: it becomes SPEAKER_1, with both of its turns (4 + 3 s).
    expect(result.speakers).toEqual([
      { label: 'SPEAKER_1', duration: 7 },
      { label: 'SPEAKER_2', duration: 5 },
    ]);
  });

  it('should keep a segment whole, text unchanged, when all its words have one speaker', () => {
    const words = [word(4.5, 5, 'one'), word(5, 6, 'voice')];
    const result = assignSpeakers(transcript([segment(4.2, 6.3, 'One voice.', words)]), turns);
    expect(result.segments).toEqual([{ ...segment(4.2, 6.3, 'One voice.', words), speaker: 'SPEAKER_1' }]);
    expect(result.speakers).toEqual([{ label: 'SPEAKER_1', duration: 5 }]);
  });

  it('should label a segment without words by the turn it overlaps most, or the nearest turn', () => {
    const result = assignSpeakers(transcript([segment(3, 8, 'mostly the second turn'), segment(15, 16, 'after every turn')]), turns);
    expect(result.segments.map((s) => [s.text, s.speaker])).toEqual([
      ['mostly the second turn', 'SPEAKER_1'],
      ['after every turn', 'SPEAKER_2'],
    ]);
  });

  it('should change nothing without turns', () => {
    const input = transcript([segment(0, 1, 'x')]);
    expect(assignSpeakers(input, [])).toBe(input);
  });
});
