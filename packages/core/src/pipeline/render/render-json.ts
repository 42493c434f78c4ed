import { roundSeconds } from './format-timestamps.ts';
import type { SegmentFlag, Transcript, TranscriptSegment, VadInterval } from '../../contract/output/transcript-model.ts';

/** One word of a json / json2 segment; times in seconds rounded to ms. */
export interface JsonWord {
  start: number;
  end: number;
  text: string;
  confidence: number | null;
}

/** One segment of a json / json2 transcript; times in seconds rounded to ms. */
export interface JsonSegment {
  start: number;
  end: number;
  text: string;
  speaker: string | null;
  language: string | null;
  words: JsonWord[];
  /** Mean natural-log token probability as the engine scored it; null when it gives none (docs/formats.md, "Confidence"). */
  avg_logprob?: number | null;
  /** UTF-8 bytes of the text over its zlib-compressed bytes. */
  compression_ratio?: number | null;
  /** 1 − Silero VAD's mean speech probability over the segment, 0..1; null when unmeasured. */
  no_speech_prob?: number | null;
  /** The segment's doubts (docs/formats.md, "Flags"); [] when none. */
  flags?: SegmentFlag[];
}

/** The `json` transcript (spec 2.3.3). */
export interface JsonTranscript {
  /** `length` in seconds (rounded to ms); `format` as ffprobe names the container. */
  source: { length: number; format: string };
  segments: JsonSegment[];
  vad: VadInterval[];
  /** Main language code, or null for a recording without speech (spec 2.3.6). */
  language: string | null;
  /** Service extension, only when known voices were asked for (docs/speakers.md). */
  speaker_voices?: JsonSpeakerVoice[];
}

/** A speaker named after a known voice: its label, the voice's id and the match's cosine similarity. */
export interface JsonSpeakerVoice {
  label: string;
  voice_id: string;
  similarity: number;
}

/** `speaker_voices` of json / json2: present (possibly empty) only when known voices were asked for. */
export function renderSpeakerVoices(model: Transcript): { speaker_voices?: JsonSpeakerVoice[] } {
  if (model.voices === undefined) return {};
  return { speaker_voices: model.voices.map((v) => ({ label: v.label, voice_id: v.voiceId, similarity: v.similarity })) };
}

/**
 * The segments of a json / json2 transcript: shape `{start, end, text, speaker, language,
 * words: [{start, end, text, confidence}]}`, all times in seconds rounded to milliseconds, then
 * for a segment the service measured (its model has `flags`) `avg_logprob, compression_ratio,
 * no_speech_prob, flags` (spec 2.3.3 lets the json form have further members; docs/formats.md,
 * "Confidence"). Text is passed through unchanged (spec 2.3.3–2.3.4).
 */
export function renderJsonSegments(segments: readonly TranscriptSegment[]): JsonSegment[] {
  return segments.map((segment) => ({
    ...renderJsonSegmentCore(segment),
    ...(segment.flags === undefined
      ? {}
      : {
          avg_logprob: segment.avgLogprob ?? null,
          compression_ratio: segment.compressionRatio ?? null,
          no_speech_prob: segment.noSpeechProb ?? null,
          flags: segment.flags,
        }),
  }));
}

function renderJsonSegmentCore(segment: TranscriptSegment): JsonSegment {
  return {
    start: roundSeconds(segment.start),
    end: roundSeconds(segment.end),
    text: segment.text,
    speaker: segment.speaker,
    language: segment.language,
    words: segment.words.map((word) => ({
      start: roundSeconds(word.start),
      end: roundSeconds(word.end),
      text: word.text,
      confidence: word.confidence,
    })),
  };
}

/** VAD speech intervals `[{start, end}]` in seconds rounded to milliseconds (spec 2.3.3). */
export function renderVad(vad: readonly VadInterval[]): VadInterval[] {
  return vad.map((interval) => ({ start: roundSeconds(interval.start), end: roundSeconds(interval.end) }));
}

/**
 * The `json` output format (spec 2.3.3): `{source: {length, format}, segments, vad, language}`,
 * with exactly these four members, plus `speaker_voices` only when known voices were asked for (an
 * additive extension, docs/speakers.md). A recording without speech (spec 2.3.6) gives
 * `segments: []`, `vad: []` and `language: null`.
 */
export function renderJson(model: Transcript): JsonTranscript {
  return {
    source: { length: roundSeconds(model.source.length), format: model.source.format },
    segments: renderJsonSegments(model.segments),
    vad: renderVad(model.vad),
    language: model.language,
    ...renderSpeakerVoices(model),
  };
}
