import {
  compressionRatio,
  findLanguage,
  renderTranscript,
  type SegmentFlag,
  type Transcript,
  type TranscriptSegment,
} from '@transcribe/core';
import type { Granularity, ResponseFormat } from './read-audio-form.ts';

/** A segment of `verbose_json` (OpenAI API reference, "The transcription object (Verbose JSON)"). */
export interface VerboseSegment {
  id: number;
  /** Start in 10 ms frames, as Whisper counts its seek position. */
  seek: number;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  /** With a leading space, as Whisper writes segment text. */
  text: string;
  /** Token ids: always empty (the engines here do not expose tokens). */
  tokens: number[];
  /** Always 0: no engine of this service samples. */
  temperature: number;
  /**
   * Mean natural-log token probability as the engine scored it (sherpa-onnx transducers, PocketSphinx
   * word posteriors, a remote server's own value); null when the engine gives none (docs/openai-api.md).
   */
  avg_logprob: number | null;
  /** UTF-8 bytes of the text over its zlib-compressed bytes (Whisper's repetition measure). */
  compression_ratio: number;
  /** 1 − Silero VAD's mean speech probability over the segment, 0..1; null when unmeasured. */
  no_speech_prob: number | null;
  /** Service extension: the speaker label (`SPEAKER_1` …) when diarization ran. */
  speaker?: string;
  /** Service extension: the segment's doubts (docs/formats.md, "Flags"); [] when none. */
  flags?: SegmentFlag[];
}

/** A word of `verbose_json`; `probability` is a service extension (whisper.cpp's server has it too). */
export interface VerboseWord {
  word: string;
  start: number;
  end: number;
  /** 0..1 when the engine scores words; null otherwise. */
  probability: number | null;
}

/** `verbose_json` (OpenAI API reference), with `words` only when asked for. */
export interface VerboseTranscription {
  task: 'transcribe' | 'translate';
  /** The language as OpenAI names it: English name, lower case (`english`). */
  language: string;
  /** Seconds. */
  duration: number;
  text: string;
  segments?: VerboseSegment[];
  words?: VerboseWord[];
}

/** A rendered answer: its body and OpenAI's content type. */
export interface AudioResponse {
  contentType: string;
  body: string;
}

/** What an answer is rendered from. */
export interface AudioAnswer {
  task: 'transcribe' | 'translate';
  /** Spec 2.5 code of the answer's language, or null when unknown. */
  language: string | null;
  /** Seconds. */
  duration: number;
  /** The timed segments (for translations, the translated subtitle cues). */
  segments: TranscriptSegment[];
  /** The whole text; when absent, the segments' texts joined with spaces. */
  text?: string;
  /** SRT of the answer (core renderSrt, or the translated_subtitles result). */
  srt: string;
  /** Speaker labels that are known voices' names (Transcript.voices): diarized_json shows them as they are. */
  namedSpeakers?: ReadonlySet<string>;
}

/** A segment of `diarized_json` (openai-node TranscriptionDiarizedSegment). */
export interface DiarizedSegment {
  type: 'transcript.text.segment';
  /** `seg_001`, `seg_002`, … (a string, as OpenAI's). */
  id: string;
  start: number;
  end: number;
  /** A known speaker's name, else `A`, `B`, … by first appearance. */
  speaker: string;
  text: string;
}

/** `diarized_json` (openai-node TranscriptionDiarized), with `usage` of type `duration`. */
export interface DiarizedTranscription {
  task: 'transcribe';
  /** Seconds. */
  duration: number;
  text: string;
  segments: DiarizedSegment[];
  usage: { type: 'duration'; seconds: number };
}

const JSON_TYPE = 'application/json';
/** OpenAI answers text, srt and vtt as `text/plain; charset=utf-8`. */
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The answer of a transcript in one of OpenAI's response formats (API reference, "Create
 * transcription", `response_format`): `json` `{text}`; `text` the text and a newline; `srt` the
 * service's SRT (docs/formats.md cues); `vtt` the same cues as WebVTT (w3.org/TR/webvtt1);
 * `verbose_json` VerboseTranscription with `segments` when `segment` is among the granularities
 * and `words` when `word` is. Times are seconds rounded to the millisecond.
 */
export function renderAudioResponse(answer: AudioAnswer, format: ResponseFormat, granularities: readonly Granularity[]): AudioResponse {
  const text =
    answer.text ??
    answer.segments
      .map((segment) => segment.text.trim())
      .filter((t) => t !== '')
      .join(' ');
  switch (format) {
    case 'json':
      return { contentType: JSON_TYPE, body: JSON.stringify({ text }) };
    case 'text':
      return { contentType: TEXT_TYPE, body: `${text}\n` };
    case 'srt':
      return { contentType: TEXT_TYPE, body: answer.srt };
    case 'vtt':
      return { contentType: TEXT_TYPE, body: convertSrtToVtt(answer.srt) };
    case 'verbose_json':
      return { contentType: JSON_TYPE, body: JSON.stringify(verboseJsonOf(answer, text, granularities)) };
    case 'diarized_json':
      return { contentType: JSON_TYPE, body: JSON.stringify(diarizedJsonOf(answer, text)) };
  }
}

/**
 * `diarized_json` (openai-node `TranscriptionDiarized`, docs/openai-api.md): one segment per transcript
 * segment with text, ids `seg_001`…, the speaker a known speaker's name when it was recognised, else a
 * capital letter by order of first appearance (`A`, `B`, …, `Z`, then `AA`…), as OpenAI labels them; a
 * transcript without diarization is all `A`. `usage` counts seconds of audio (no tokens here).
 */
export function diarizedJsonOf(answer: AudioAnswer, text: string): DiarizedTranscription {
  const letters = new Map<string | null, string>();
  const letterOf = (label: string | null): string => {
    if (label !== null && answer.namedSpeakers?.has(label)) return label;
    if (!letters.has(label)) letters.set(label, speakerLetter(letters.size));
    return letters.get(label)!;
  };
  const segments = answer.segments
    .filter((segment) => segment.text.trim() !== '')
    .map((segment, index) => ({
      type: 'transcript.text.segment' as const,
      id: `seg_${String(index + 1).padStart(3, '0')}`,
      start: round(segment.start),
      end: round(segment.end),
      speaker: letterOf(segment.speaker),
      text: segment.text.trim(),
    }));
  const duration = round(answer.duration);
  return { task: 'transcribe', duration, text, segments, usage: { type: 'duration', seconds: duration } };
}

/** 0 → `A`, 25 → `Z`, 26 → `AA` (spreadsheet columns). */
function speakerLetter(index: number): string {
  let label = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  return label;
}

/** The AudioAnswer of a transcript (`task: transcribe`), its SRT from core's renderer. */
export function answerOfTranscript(transcript: Transcript): AudioAnswer {
  return {
    task: 'transcribe',
    language: transcript.language,
    duration: transcript.source.length,
    segments: transcript.segments,
    srt: renderTranscript(transcript, 'srt'),
    namedSpeakers: new Set((transcript.voices ?? []).map((voice) => voice.label)),
  };
}

/**
 * OpenAI's name of a language: its English name in lower case (`en` → `english`), as Whisper's
 * tokenizer names languages; `unknown` when the code is null or not in the spec 2.5 table.
 */
export function openAiLanguageName(code: string | null): string {
  return code === null ? 'unknown' : (findLanguage(code)?.name.toLowerCase() ?? code);
}

function verboseJsonOf(answer: AudioAnswer, text: string, granularities: readonly Granularity[]): VerboseTranscription {
  const body: VerboseTranscription = {
    task: answer.task,
    language: openAiLanguageName(answer.language),
    duration: round(answer.duration),
    text,
  };
  if (granularities.includes('segment')) body.segments = answer.segments.map(verboseSegmentOf);
  if (granularities.includes('word')) {
    body.words = answer.segments.flatMap((segment) =>
      segment.words.map((word) => ({ word: word.text, start: round(word.start), end: round(word.end), probability: word.confidence })),
    );
  }
  return body;
}

/**
 * A verbose_json segment from a segment of the transcript model: `avg_logprob`, `no_speech_prob`,
 * `compression_ratio` and `flags` as the pipeline measured them (pipeline/recognize/assess-segments.ts);
 * a segment never measured (translated subtitle cues, transcripts stored before the measures) has
 * null scores, its text's compression ratio and no `flags`. Never a constant standing for a score.
 */
function verboseSegmentOf(segment: TranscriptSegment, id: number): VerboseSegment {
  const text = ` ${segment.text.trim()}`;
  return {
    id,
    seek: Math.round(segment.start * 100),
    start: round(segment.start),
    end: round(segment.end),
    text,
    tokens: [],
    temperature: 0,
    avg_logprob: segment.avgLogprob ?? null,
    compression_ratio: segment.compressionRatio ?? compressionRatio(segment.text.trim()),
    no_speech_prob: segment.noSpeechProb ?? null,
    ...(segment.speaker === null ? {} : { speaker: segment.speaker }),
    ...(segment.flags === undefined ? {} : { flags: segment.flags }),
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * SRT → WebVTT (w3.org/TR/webvtt1): the `WEBVTT` header, each cue's number kept as its identifier,
 * `,` → `.` in the timings, and in the cue text `&`, `<`, `>` escaped and any `-->` broken
 * (neither may appear raw in a WebVTT cue payload). An empty SRT gives a file with the header only.
 */
export function convertSrtToVtt(srt: string): string {
  const cues = srt
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  const out = cues.map((block) => {
    const lines = block.split('\n');
    const timingAt = lines.findIndex((line) => line.includes('-->'));
    if (timingAt < 0) return null;
    const id = timingAt > 0 ? (lines[0] ?? '').replace(/-->/g, '->') : '';
    const timing = (lines[timingAt] ?? '').replace(/(\d\d:\d\d:\d\d),(\d\d\d)/g, '$1.$2');
    const payload = lines
      .slice(timingAt + 1)
      .map((line) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))
      .filter((line) => line.trim() !== '');
    return [...(id ? [id] : []), timing, ...payload].join('\n');
  });
  const body = out.filter((cue): cue is string => cue !== null).join('\n\n');
  return body === '' ? 'WEBVTT\n' : `WEBVTT\n\n${body}\n`;
}

/**
 * Reads an SRT text (the `translated_subtitles` result) into timed segments: text lines of a cue
 * joined with spaces, no words, no speaker (a `SPEAKER_n: ` prefix stays in the text).
 */
export function segmentsOfSrt(srt: string): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  for (const block of srt.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.trim().split('\n');
    const timingAt = lines.findIndex((line) => line.includes('-->'));
    const match = /(\d+):(\d\d):(\d\d)[,.](\d{3})\s*-->\s*(\d+):(\d\d):(\d\d)[,.](\d{3})/.exec(lines[timingAt] ?? '');
    if (!match) continue;
    const time = (h?: string, m?: string, s?: string, ms?: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
    segments.push({
      start: time(match[1], match[2], match[3], match[4]),
      end: time(match[5], match[6], match[7], match[8]),
      text: lines
        .slice(timingAt + 1)
        .join(' ')
        .trim(),
      speaker: null,
      language: 'en',
      words: [],
    });
  }
  return segments;
}
