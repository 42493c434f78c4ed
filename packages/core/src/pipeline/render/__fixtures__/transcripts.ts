/**
 * Fixed transcript models for the renderer tests and golden files (docs/formats.md examples).
 * Times in seconds. Words are laid out evenly over their segment so timings stay readable.
 */
import type { Transcript, TranscriptSegment, TranscriptWord } from '../../../contract/output/transcript-model.ts';

/** Words of `text` (split at spaces) spread evenly over `start..end`, confidence 0.9. */
export function evenWords(text: string, start: number, end: number): TranscriptWord[] {
  const pieces = text.split(' ');
  const step = (end - start) / pieces.length;
  return pieces.map((piece, i) => ({
    start: Math.round((start + i * step) * 1000) / 1000,
    end: Math.round((start + (i + 1) * step - step * 0.1) * 1000) / 1000,
    text: piece,
    confidence: 0.9,
  }));
}

function segment(
  start: number,
  end: number,
  text: string,
  speaker: string | null,
  language: string | null,
  withWords: boolean,
): TranscriptSegment {
  return { start, end, text, speaker, language, words: withWords ? evenWords(text, start, end) : [] };
}

/** A recording without speech (spec 2.3.6). */
export const EMPTY_TRANSCRIPT: Transcript = {
  source: { length: 12.5, format: 'wav' },
  segments: [],
  vad: [],
  language: null,
  languages: [],
  speakers: [],
};

/** One language, one speaker; a 3.4 s pause, a long segment without words, a word-count mismatch. */
export const ONE_SPEAKER_TRANSCRIPT: Transcript = {
  source: { length: 25.04, format: 'ogg' },
  segments: [
    segment(1.2, 4.5, 'Good morning, and welcome to the weekly update.', 'SPEAKER_1', 'en', true),
    segment(
      7.9,
      21.35,
      'This week we finished the migration of the billing service to the new cluster, ' +
        'and the error rate dropped by half compared with last month.',
      'SPEAKER_1',
      'en',
      false,
    ),
    {
      ...segment(21.8, 24.0, 'Questions are welcome\nat the end.', 'SPEAKER_1', 'en', false),
      words: evenWords('Questions welcome end', 21.8, 24.0),
    },
  ],
  vad: [
    { start: 1.0, end: 4.6 },
    { start: 7.8, end: 24.1 },
  ],
  language: 'en',
  languages: [{ code: 'en', name: 'English', probability: null, duration: null }],
  speakers: [{ label: 'SPEAKER_1', duration: 18.95 }],
};

/** Three speakers, English and German, one overlap, a long segment with word timings. */
export const MULTI_SPEAKER_TRANSCRIPT: Transcript = {
  source: { length: 32.0, format: 'mov,mp4,m4a,3gp,3g2,mj2' },
  segments: [
    segment(0.5, 3.25, 'Hi everyone, thanks for joining.', 'SPEAKER_1', 'en', true),
    segment(3.4, 9.8, 'Danke, dass ich dabei sein darf. Ich spreche heute über unsere Pläne für den Herbst.', 'SPEAKER_2', 'de', true),
    segment(9.6, 12.0, 'Great, go ahead.', 'SPEAKER_1', 'en', true),
    segment(
      15.5,
      30.0,
      'Before that, a quick note on logistics: the venue changed, the new address is in the ' +
        'calendar invite, and lunch will be served on the second floor right after the keynote.',
      'SPEAKER_3',
      'en',
      true,
    ),
    segment(30.2, 31.0, 'Genau.', 'SPEAKER_2', 'de', false),
  ],
  vad: [
    { start: 0.4, end: 12.1 },
    { start: 15.4, end: 31.1 },
  ],
  language: 'en',
  languages: [
    { code: 'en', name: 'English', probability: 0.82, duration: 19.65 },
    { code: 'de', name: 'German', probability: 0.18, duration: 7.2 },
  ],
  speakers: [
    { label: 'SPEAKER_1', duration: 5.15 },
    { label: 'SPEAKER_2', duration: 7.2 },
    { label: 'SPEAKER_3', duration: 14.5 },
  ],
};

/** Over two hours, no diarization (speaker null), main language only (`languages` empty). */
export const LONG_TRANSCRIPT: Transcript = {
  source: { length: 7600.5, format: 'mp3' },
  segments: [
    segment(5.0, 8.25, 'Recording starts now.', null, 'en', true),
    segment(3598.5, 3604.25, 'We are crossing the one hour mark right about now, so let us take a short break.', null, 'en', true),
    segment(4503.2, 4507.9, 'Welcome back to the second part.', null, 'en', true),
    segment(
      7501.0,
      7520.4,
      'To wrap up: thank you all for staying this long, the recording and the slides will be ' +
        'shared tomorrow morning, and the next session is in two weeks.',
      null,
      'en',
      false,
    ),
  ],
  vad: [
    { start: 4.9, end: 8.3 },
    { start: 3598.4, end: 3604.3 },
    { start: 4503.1, end: 4508.0 },
    { start: 7500.9, end: 7520.5 },
  ],
  language: 'en',
  languages: [],
  speakers: [],
};

/** Every fixture by the folder name of its golden files. */
export const TRANSCRIPT_FIXTURES: Readonly<Record<string, Transcript>> = {
  empty: EMPTY_TRANSCRIPT,
  'one-speaker': ONE_SPEAKER_TRANSCRIPT,
  'multi-speaker': MULTI_SPEAKER_TRANSCRIPT,
  long: LONG_TRANSCRIPT,
};
