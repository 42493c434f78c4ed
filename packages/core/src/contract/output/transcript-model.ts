/**
 * The one transcript model of the service. Every output format (spec 2.3) is a pure renderer
 * of this model. All times are in seconds from the start of the recording.
 */

/**
 * One recognised word with its timing. `confidence` is 0..1 when the engine gives it (sherpa-onnx
 * transducers: exp of the mean log-probability of the word's tokens; PocketSphinx: the word's lattice
 * posterior; a remote server: its `words[].probability`), else null (docs/formats.md, "Confidence").
 */
export interface TranscriptWord {
  start: number;
  end: number;
  text: string;
  confidence: number | null;
}

/** One segment: a stretch of speech by one speaker. */
export interface TranscriptSegment {
  /** Seconds from the start of the recording. */
  start: number;
  /** Seconds from the start of the recording; `end >= start`. */
  end: number;
  text: string;
  /** Speaker label such as `SPEAKER_1`, or null when diarization did not run. */
  speaker: string | null;
  /** ISO 639-1 (or 2.5 table) code of the segment's language, or null when unknown. */
  language: string | null;
  words: TranscriptWord[];
  /**
   * Mean natural-log probability of the segment's tokens as the engine scored them (Whisper's
   * `avg_logprob`); null when the engine gives no scores. Absent in transcripts made before the
   * service measured confidence (they then show no confidence members at all).
   */
  avgLogprob?: number | null;
  /** UTF-8 bytes of the text over the bytes of its zlib compression (Whisper's repetition measure). */
  compressionRatio?: number;
  /** 1 − Silero VAD's mean speech probability over the segment's span, 0..1; null when unmeasured. */
  noSpeechProb?: number | null;
  /** Doubts about the segment (docs/formats.md, "Flags"); [] when none. */
  flags?: SegmentFlag[];
}

/**
 * Why a segment is doubtful (docs/formats.md, "Flags"; thresholds after Whisper's and
 * faster-whisper's defaults, configurable): `low_logprob` avg_logprob below −1; `compression`
 * compression ratio above 2.4; `no_speech` no_speech_prob above 0.6 with avg_logprob below −1;
 * `repetition` the engine looped on a phrase; `outside_speech` a word lies where VAD heard no speech.
 */
export type SegmentFlag = 'low_logprob' | 'compression' | 'no_speech' | 'repetition' | 'outside_speech';

/** Every flag, in the order they are written. */
export const SEGMENT_FLAGS: readonly SegmentFlag[] = ['low_logprob', 'compression', 'no_speech', 'repetition', 'outside_speech'];

/** One interval where voice-activity detection found speech, in seconds. */
export interface VadInterval {
  start: number;
  end: number;
}

/** A language found in the recording. */
export interface DetectedLanguage {
  code: string;
  name: string;
  /** 0..1, or null when only the main language is known (spec 2.3.4). */
  probability: number | null;
  /** Seconds of speech in this language, or null when unknown (spec 2.3.4). */
  duration: number | null;
}

/** A speaker with the total time they talk, in seconds. */
export interface TranscriptSpeaker {
  label: string;
  duration: number;
}

export interface Transcript {
  source: {
    /** Length of the recording in seconds. */
    length: number;
    /** Container format as ffprobe names it, e.g. `wav`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`. */
    format: string;
  };
  segments: TranscriptSegment[];
  vad: VadInterval[];
  /** Main language code, or null when there is no speech. */
  language: string | null;
  languages: DetectedLanguage[];
  speakers: TranscriptSpeaker[];
  /**
   * Present only when known voices were asked for (docs/speakers.md): each speaker label that took a
   * voice's name, with the voice's id and the cosine similarity of the match (-1..1).
   */
  voices?: TranscriptVoice[];
}

/** A speaker named after a voice of the registry. */
export interface TranscriptVoice {
  label: string;
  voiceId: string;
  similarity: number;
}
