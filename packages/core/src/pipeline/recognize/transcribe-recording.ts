import type { Transcript, TranscriptSegment, VadInterval } from '../../contract/output/transcript-model.ts';
import { applySpellingHints } from './hints/apply-spelling-hints.ts';
import { collapseRepeats } from './collapse-repeats.ts';
import { derivePromptHints } from './hints/derive-prompt-hints.ts';
import { detectSpeechLevels } from '../vad/detect-speech.ts';
import type { VadWorkerPool } from '../vad/create-vad-worker-pool.ts';
import { orderDecodedUtterances } from './order-decoded-utterances.ts';
import { gateWordsToSpeech } from './gate-words-to-speech.ts';
import { assessSegments, hasRepetitionLoop, resolveFlagThresholds, type FlagThresholds } from './assess-segments.ts';
import type { SpeechScores } from '../vad/detect-speech.ts';
import { DEFAULT_PRONUNCIATION_DICTIONARY } from './hints/read-pronunciations.ts';
import type { NativeHints, RecognitionEngine, RecognizedSegment } from './recognition-engine.ts';
import { findLanguage } from '../../contract/spec/languages.ts';
import { summarizeLanguages, wordSeparator } from './summarize-languages.ts';
import { resolveRecognitionProfile } from './recognition-profile.ts';
import type { Domain, Efficiency } from '../../contract/validation/prediction-input.ts';
import type { ExternalCallCounter } from '../../platform/metrics/count-external-call.ts';
import { startStage, type StageObserver } from '../../platform/metrics/time-stage.ts';

export interface TranscribeRecordingInput {
  /** 16 kHz mono 16-bit WAV file (pipeline/decode/decode-to-pcm.ts). */
  wavPath: string;
  /** Length of the recording, seconds. */
  durationSeconds: number;
  /** Container format as ffprobe names it, copied to `transcript.source.format`. */
  formatName: string;
  engine: RecognitionEngine;
  /** Silero VAD model (resolveDefaultVadModelPath()). */
  vadModelPath: string;
  /** The process's VAD worker threads, kept between recordings (ctx.vadWorkers); absent: a worker per call. */
  vadWorkers?: VadWorkerPool;
  /** Requested language code, or null for the engine's choice. */
  language: string | null;
  /** Spec 2.2 `prompt`: passed to the engine; its names and terms become spelling hints when the engine cannot read it. */
  prompt: string | null;
  /** Spec 2.2 `hotwords`: passed to the engine and always applied as spelling hints (apply-spelling-hints.ts). */
  hotwords: string[];
  /** CMUdict-format pronunciations for the spelling hints (default PocketSphinx's; null: spelling only). */
  pronunciationDictionaryPath?: string | null;
  /** Spec 2.2 `domain` and `efficiency` (recognition-profile.ts). */
  domain?: Domain | null;
  efficiency?: Efficiency | null;
  /** Spec 2.2 `multilingual` (null → false): passed to the engine; json2 `languages` then lists every language found with its duration. */
  multilingual?: boolean | null;
  /** `translate`: the engine's own translation into English (only for engines that `translate`). */
  task?: 'transcribe' | 'translate';
  signal?: AbortSignal;
  /**
   * Progress lines for the prediction log, e.g. `VAD: 4 speech intervals, 8.9 s of speech`; the
   * line that ends a stage (VAD, `recognized 100%`) carries its `seconds` for the structured log.
   */
  onStage?: (line: string, fields?: { seconds: number }) => void;
  /**
   * Called with the VAD intervals (seconds) as soon as VAD is done, before the engine runs (to start
   * diarization alongside it), the quiet speech at `quietSpeechThreshold` ([] without it) and the
   * VAD's window scores (to assess segments again after a step that splits them).
   */
  onSpeech?: (speech: VadInterval[], quietSpeech: VadInterval[], scores: SpeechScores) => void;
  /**
   * Called with each recognised segment's text as soon as the engine has decoded it (engines that
   * report utterances: RecognitionRequest.onUtterance), in the order of the recording, before the
   * gating, loop collapsing and spelling hints that the returned transcript has. For showing text
   * early (`stream=true`, docs/live.md); the returned transcript stays the answer.
   */
  onSegment?: (segment: EarlySegment) => void;
  /**
   * Limits of the segment flags the operator set (assess-segments.ts); an absent limit is the
   * engine's own (`low_logprob`: RecognitionEngine.lowLogprobLimit) or Whisper's default (resolveFlagThresholds).
   */
  flagThresholds?: Partial<FlagThresholds>;
  /** A lower VAD onset whose speech the same VAD pass also reports to `onSpeech` (the built-in diarizer's quiet speech). */
  quietSpeechThreshold?: number;
  /**
   * `ctx.metrics`: times the `vad` and `recognition` stages, and is passed to the engine, which
   * counts its calls to an outside service there.
   */
  metrics?: ExternalCallCounter & StageObserver;
}

/** A segment's text as the engine first gave it (TranscribeRecordingInput.onSegment); times in seconds. */
export interface EarlySegment {
  start: number;
  end: number;
  text: string;
}

/**
 * The recognition step of the pipeline: voice-activity detection, then (only when there is speech)
 * the engine on the speech intervals, then gating words to speech, flagging and collapsing loops,
 * applying spelling hints (`hotwords`, and `prompt` terms when the engine cannot read the prompt:
 * spellingHintsFor; docs/recognition.md), and measuring and flagging each segment (assessSegments).
 * @returns the Transcript (times in seconds): no segments, `vad` [] and `language` null when there
 *   is no speech; otherwise one segment per recognised segment with `speaker` null, each with
 *   `avgLogprob`, `compressionRatio`, `noSpeechProb` and `flags`.
 * @throws AppError from detectSpeech and engine.recognize (`engine_unavailable`,
 *   `recognition_failed`, `media_unreadable`, `invalid_input`); `signal.reason` when aborted.
 */
export async function transcribeRecording(input: TranscribeRecordingInput): Promise<Transcript> {
  const profile = resolveRecognitionProfile(input.domain);
  const vad = startStage(input.metrics, 'vad');
  const { speech, quietSpeech, scores } = await detectSpeechLevels(input.wavPath, {
    modelPath: input.vadModelPath,
    threshold: profile.vad.threshold,
    minSilenceSeconds: profile.vad.minSilenceSeconds,
    minSpeechSeconds: profile.vad.minSpeechSeconds,
    signal: input.signal,
    ...(input.vadWorkers ? { workers: input.vadWorkers } : {}),
    ...(input.quietSpeechThreshold === undefined ? {} : { quietThreshold: input.quietSpeechThreshold }),
  });
  input.onStage?.(describeSpeech(speech), { seconds: vad.done() });
  input.onSpeech?.(speech, quietSpeech, scores);
  const source = { length: input.durationSeconds, format: input.formatName };
  // song: VAD misses sung words, so the whole recording is recognised (no gating).
  const recognizable = profile.gateToSpeech ? speech : [{ start: 0, end: input.durationSeconds }];
  if (recognizable.length === 0) return { source, segments: [], vad: [], language: null, languages: [], speakers: [] };
  if (input.language === null && input.engine.languages !== 'any' && input.engine.languages.length === 1) {
    // The engine cannot detect a language: say which one the transcript is in, rather than let a
    // German recording come back as English-sounding words with no hint why.
    const only = input.engine.languages[0]!;
    input.onStage?.(
      `language not given: ${input.engine.name} knows only ${findLanguage(only)?.name ?? only} (${only}), so ${findLanguage(only)?.name ?? only} was assumed`,
    );
  }
  let reported = -1;
  const recognition = startStage(input.metrics, 'recognition');
  const recognized = await input.engine.recognize({
    wavPath: input.wavPath,
    durationSeconds: input.durationSeconds,
    speech: recognizable,
    language: input.language,
    prompt: input.prompt,
    hotwords: input.hotwords,
    efficiency: input.efficiency ?? null,
    domain: input.domain ?? null,
    multilingual: input.multilingual ?? false,
    ...(input.task === 'translate' ? { task: 'translate' as const } : {}),
    signal: input.signal,
    metrics: input.metrics,
    ...(input.onSegment ? { onUtterance: orderDecodedUtterances(emitEarly(input.onSegment)) } : {}),
    onProgress: (fraction) => {
      const percent = Math.floor(fraction * 10) * 10; // one line per 10 %; 100 % once the engine returned, with the seconds
      if (percent > reported && percent < 100) input.onStage?.(`recognized ${(reported = percent)}%`);
    },
  });
  input.onStage?.('recognized 100%', { seconds: recognition.done() });
  const gated = markLoops(gateWordsToSpeech(recognized, recognizable));
  const collapsed = profile.collapseRepeats ? collapseRepeats(gated) : gated;
  const kept = await correctSpelling(collapsed, input);
  const { language, languages } = summarizeLanguages(kept, input.language, input.engine.defaultLanguage, {
    multilingual: input.multilingual ?? false,
  });
  const segments = assessSegments(
    kept.map((s) => toTranscriptSegment(s, language)),
    { scores, speech, thresholds: resolveFlagThresholds(input.flagThresholds, input.engine) },
  );
  return { source, segments, vad: speech, language, languages, speakers: [] };
}

/** Passes each segment with text on to `onSegment`, trimmed. */
function emitEarly(onSegment: (segment: EarlySegment) => void) {
  return (segments: RecognizedSegment[]) => {
    for (const segment of segments) {
      const text = segment.text.trim();
      if (text !== '') onSegment({ start: segment.start, end: segment.end, text });
    }
  };
}

/** Flags `repetition` on the segments whose words loop, before collapseRepeats removes the loop. */
function markLoops(segments: RecognizedSegment[]): RecognizedSegment[] {
  return segments.map((segment) => {
    const words = segment.words.length > 0 ? segment.words.map((word) => word.text) : segment.text.trim().split(/\s+/);
    return hasRepetitionLoop(words) ? { ...segment, flags: ['repetition'] } : segment;
  });
}

/**
 * The spelling hints for a request: every hotword, then the prompt's names and terms
 * (derivePromptHints) unless the engine reads the prompt itself (`nativeHints().prompt`).
 */
export function spellingHintsFor(input: Pick<TranscribeRecordingInput, 'prompt' | 'hotwords'>, native: NativeHints): string[] {
  return [...input.hotwords, ...(native.prompt ? [] : derivePromptHints(input.prompt))];
}

async function correctSpelling(segments: RecognizedSegment[], input: TranscribeRecordingInput): Promise<RecognizedSegment[]> {
  const native = input.engine.nativeHints?.({
    language: input.language,
    efficiency: input.efficiency ?? null,
    multilingual: input.multilingual ?? false,
  }) ?? { prompt: false, hotwords: false };
  const hints = spellingHintsFor(input, native);
  if (hints.length === 0) return segments;
  const dictionaryPath =
    input.pronunciationDictionaryPath === undefined ? DEFAULT_PRONUNCIATION_DICTIONARY : input.pronunciationDictionaryPath;
  const result = await applySpellingHints(segments, hints, { dictionaryPath });
  input.onStage?.(
    `spelling hints: ${hints.length} (${describeSources(input, native)}), ${result.replaced} replaced, ${result.recased} recased`,
  );
  return result.segments;
}

function describeSources(input: TranscribeRecordingInput, native: NativeHints): string {
  const sources = [];
  if (input.hotwords.length > 0) sources.push(native.hotwords ? 'hotwords, also used by the engine' : 'hotwords');
  if (input.prompt !== null && !native.prompt) sources.push('prompt terms');
  return sources.join(', ');
}

function toTranscriptSegment(segment: RecognizedSegment, language: string): TranscriptSegment {
  const text =
    segment.words.length > 0 ? segment.words.map((word) => word.text).join(wordSeparator(segment.language ?? language)) : segment.text;
  return {
    start: segment.start,
    end: segment.end,
    text,
    speaker: null,
    language: segment.language ?? language,
    words: segment.words,
    avgLogprob: segment.avgLogprob ?? null,
    ...(segment.flags ? { flags: segment.flags } : {}),
  };
}

/** `VAD: 4 speech intervals, 8.9 s of speech` (or `VAD: no speech`). */
export function describeSpeech(speech: readonly VadInterval[]): string {
  if (speech.length === 0) return 'VAD: no speech';
  const seconds = speech.reduce((sum, interval) => sum + interval.end - interval.start, 0);
  const noun = speech.length === 1 ? 'interval' : 'intervals';
  return `VAD: ${speech.length} speech ${noun}, ${seconds.toFixed(1)} s of speech`;
}
