import { LANGUAGES } from '../../contract/spec/languages.ts';
import { roundSeconds } from './format-timestamps.ts';
import { listSpeakers } from './list-speakers.ts';
import { renderJsonSegments, renderSpeakerVoices, renderVad } from './render-json.ts';
import type { JsonSegment, JsonSpeakerVoice } from './render-json.ts';
import type { DetectedLanguage, Transcript, TranscriptSpeaker, VadInterval } from '../../contract/output/transcript-model.ts';

/** The `json2` transcript (spec 2.3.4); times and durations in seconds rounded to ms. */
export interface Json2Transcript {
  source: { length: number; format: string };
  segments: JsonSegment[];
  vad: VadInterval[];
  /** `[{code, name, probability (0..1 or null), duration (seconds or null)}]`. */
  languages: DetectedLanguage[];
  /** `[{label, duration}]`: talk time of each speaker in seconds. */
  speakers: TranscriptSpeaker[];
  /** Service extension, only when known voices were asked for (docs/speakers.md). */
  speaker_voices?: JsonSpeakerVoice[];
}

/**
 * `json2.languages` (spec 2.3.4). The model's list when it has one (durations rounded to ms).
 * When only the main language is known, exactly one element
 * `{code, name, probability: null, duration: null}`; the English name comes from the
 * spec 2.5 table, or is the code itself for a code outside it. No speech → `[]`.
 */
export function renderLanguages(model: Transcript): DetectedLanguage[] {
  if (model.languages.length > 0) {
    return model.languages.map((language) => ({
      code: language.code,
      name: language.name,
      probability: language.probability,
      duration: language.duration === null ? null : roundSeconds(language.duration),
    }));
  }
  if (model.language === null) return [];
  const code = model.language;
  const name = LANGUAGES.find((language) => language.code === code)?.name ?? code;
  return [{ code, name, probability: null, duration: null }];
}

/**
 * `json2.speakers` (spec 2.3.4): `[{label, duration}]`, talk time in seconds rounded to ms.
 * The model's list when it has one; otherwise summed from the segments' `end - start`, in order
 * of first appearance. No diarization (every speaker null) → `[]`.
 */
export function renderSpeakers(model: Transcript): TranscriptSpeaker[] {
  if (model.speakers.length > 0) {
    return model.speakers.map((s) => ({ label: s.label, duration: roundSeconds(s.duration) }));
  }
  return listSpeakers(model.segments).map((label) => {
    const mine = model.segments.filter((segment) => segment.speaker === label);
    const duration = mine.reduce((sum, segment) => sum + Math.max(0, segment.end - segment.start), 0);
    return { label, duration: roundSeconds(duration) };
  });
}

/**
 * The `json2` output format (spec 2.3.4): `{source, segments, vad, languages, speakers}`;
 * `source`, `segments` and `vad` are exactly those of json (spec 2.3.3). No speech (2.3.6) →
 * every list empty.
 */
export function renderJson2(model: Transcript): Json2Transcript {
  return {
    source: { length: roundSeconds(model.source.length), format: model.source.format },
    segments: renderJsonSegments(model.segments),
    vad: renderVad(model.vad),
    languages: renderLanguages(model),
    speakers: renderSpeakers(model),
    ...renderSpeakerVoices(model),
  };
}
