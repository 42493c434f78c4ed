import type { Transcript, TranscriptSegment, TranscriptWord } from '../../../contract/output/transcript-model.ts';

/** A word without confidence, times in seconds. */
export function word(start: number, end: number, text: string): TranscriptWord {
  return { start, end, text, confidence: null };
}

/** An English segment without speaker. */
export function segment(start: number, end: number, text: string, words: TranscriptWord[] = []): TranscriptSegment {
  return { start, end, text, speaker: null, language: 'en', words };
}

/** An English transcript of a 20 s WAV; `vad` defaults to the segments' spans. */
export function transcript(segments: TranscriptSegment[], vad = segments.map((s) => ({ start: s.start, end: s.end }))): Transcript {
  return {
    source: { length: 20, format: 'wav' },
    segments,
    vad,
    language: 'en',
    languages: [{ code: 'en', name: 'English', probability: null, duration: null }],
    speakers: [],
  };
}
