import type { Transcript, TranscriptSegment, VadInterval } from '../transcript/transcript-model.ts';
import { collapseRepeats } from './collapse-repeats.ts';
import { detectSpeech } from './detect-speech.ts';
import { gateWordsToSpeech } from './gate-words-to-speech.ts';
import type { RecognitionEngine, RecognizedSegment } from './recognition-engine.ts';
import { summarizeLanguages, wordSeparator } from './summarize-languages.ts';
import { resolveRecognitionProfile } from './recognition-profile.ts';
import type { Domain, Efficiency } from '../validation/prediction-input.ts';

export interface TranscribeRecordingInput {
  /** 16 kHz mono 16-bit WAV file (media/decode-to-pcm.ts). */
  wavPath: string;
  /** Length of the recording, seconds. */
  durationSeconds: number;
  /** Container format as ffprobe names it, copied to `transcript.source.format`. */
  formatName: string;
  engine: RecognitionEngine;
  /** Silero VAD model (resolveDefaultVadModelPath()). */
  vadModelPath: string;
  /** Requested language code, or null for the engine's choice. */
  language: string | null;
  prompt: string | null;
  hotwords: string[];
  /** Spec 2.2 `domain` and `efficiency` (recognition-profile.ts). */
  domain?: Domain | null;
  efficiency?: Efficiency | null;
  signal?: AbortSignal;
  /** Progress lines for the prediction log, e.g. `VAD: 4 speech intervals, 8.9 s of speech`. */
  onStage?: (line: string) => void;
}

/**
 * The recognition step of the pipeline: voice-activity detection, then (only when there is speech)
 * the engine on the speech intervals, then gating words to speech and collapsing loops.
 * @returns the Transcript (times in seconds): no segments, `vad` [] and `language` null when there
 *   is no speech; otherwise one segment per recognised segment with `speaker` null.
 * @throws AppError from detectSpeech and engine.recognize (`engine_unavailable`,
 *   `recognition_failed`, `media_unreadable`, `invalid_input`); `signal.reason` when aborted.
 */
export async function transcribeRecording(input: TranscribeRecordingInput): Promise<Transcript> {
  const profile = resolveRecognitionProfile(input.domain);
  const speech = await detectSpeech(input.wavPath, {
    modelPath: input.vadModelPath,
    threshold: profile.vad.threshold,
    minSilenceSeconds: profile.vad.minSilenceSeconds,
    minSpeechSeconds: profile.vad.minSpeechSeconds,
    signal: input.signal,
  });
  input.onStage?.(describeSpeech(speech));
  const source = { length: input.durationSeconds, format: input.formatName };
  // song: VAD misses sung words, so the whole recording is recognised (no gating).
  const recognizable = profile.gateToSpeech ? speech : [{ start: 0, end: input.durationSeconds }];
  if (recognizable.length === 0) return { source, segments: [], vad: [], language: null, languages: [], speakers: [] };
  let reported = -1;
  const recognized = await input.engine.recognize({
    wavPath: input.wavPath,
    durationSeconds: input.durationSeconds,
    speech: recognizable,
    language: input.language,
    prompt: input.prompt,
    hotwords: input.hotwords,
    efficiency: input.efficiency ?? null,
    domain: input.domain ?? null,
    signal: input.signal,
    onProgress: (fraction) => {
      const percent = Math.floor(fraction * 10) * 10; // one line per 10 %
      if (percent > reported) input.onStage?.(`recognized ${(reported = percent)}%`);
    },
  });
  if (reported < 100) input.onStage?.('recognized 100%');
  const gated = gateWordsToSpeech(recognized, recognizable);
  const kept = profile.collapseRepeats ? collapseRepeats(gated) : gated;
  const { language, languages } = summarizeLanguages(kept, input.language, input.engine.defaultLanguage);
  const segments = kept.map((s) => toTranscriptSegment(s, language));
  return { source, segments, vad: speech, language, languages, speakers: [] };
}

function toTranscriptSegment(segment: RecognizedSegment, language: string): TranscriptSegment {
  const text = segment.words.length > 0 ? segment.words.map((word) => word.text).join(wordSeparator(segment.language ?? language)) : segment.text;
  return {
    start: segment.start,
    end: segment.end,
    text,
    speaker: null,
    language: segment.language ?? language,
    words: segment.words,
  };
}

/** `VAD: 4 speech intervals, 8.9 s of speech` (or `VAD: no speech`). */
export function describeSpeech(speech: readonly VadInterval[]): string {
  if (speech.length === 0) return 'VAD: no speech';
  const seconds = speech.reduce((sum, interval) => sum + interval.end - interval.start, 0);
  const noun = speech.length === 1 ? 'interval' : 'intervals';
  return `VAD: ${speech.length} speech ${noun}, ${seconds.toFixed(1)} s of speech`;
}
