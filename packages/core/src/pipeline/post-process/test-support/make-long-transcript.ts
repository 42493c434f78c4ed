import type { Transcript } from '../../../contract/output/transcript-model.ts';

/**
 * A transcript of `count` segments, 6 s each with 1 s gaps, two alternating speakers, English,
 * each segment a distinct sentence (`Point 7: …`), for chunking and map-reduce tests.
 */
export function makeLongTranscript(count: number): Transcript {
  const segments = Array.from({ length: count }, (_, i) => ({
    start: i * 7 + 0.25,
    end: i * 7 + 6.25,
    text: `Point ${i + 1}: the committee discussed agenda item ${i + 1}, the budget of ${(i + 1) * 100} euros and the schedule for week ${(i % 52) + 1}.`,
    speaker: i % 2 === 0 ? 'SPEAKER_1' : 'SPEAKER_2',
    language: 'en',
    words: [],
  }));
  return {
    source: { length: count * 7, format: 'wav' },
    segments,
    vad: segments.map(({ start, end }) => ({ start, end })),
    language: 'en',
    languages: [{ code: 'en', name: 'English', probability: null, duration: null }],
    speakers: [
      { label: 'SPEAKER_1', duration: count * 3 },
      { label: 'SPEAKER_2', duration: count * 3 },
    ],
  };
}
