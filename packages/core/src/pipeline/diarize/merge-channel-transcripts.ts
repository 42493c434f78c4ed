import type { DetectedLanguage, Transcript, TranscriptSegment } from '../../contract/output/transcript-model.ts';
import { speakerLabel } from './speaker-turn.ts';
import { mergeRegions, totalSeconds } from './time-regions.ts';

/**
 * One transcript from the transcripts of the two channels of a stereo recording whose channels carry
 * different speakers (splitStereoChannels): each channel is one speaker; labels `SPEAKER_1`, `SPEAKER_2`
 * go by first appearance (the channel whose first segment starts first is `SPEAKER_1`; left on a tie),
 * as everywhere (docs/formats.md). Segments are merged by start time (they may overlap); `vad` is the
 * union of both; `speakers` gives each channel's speech time (its `vad` total); the main language is
 * the one of the channel with more speech, and `languages` lists that channel's languages first.
 * @returns a new transcript; a channel without segments adds no speaker.
 */
export function mergeChannelTranscripts(left: Transcript, right: Transcript): Transcript {
  const channels = [left, right].filter((channel) => channel.segments.length > 0);
  channels.sort((a, b) => a.segments[0]!.start - b.segments[0]!.start);
  const segments: TranscriptSegment[] = channels
    .flatMap((channel, index) => channel.segments.map((segment) => ({ ...segment, speaker: speakerLabel(index) })))
    .sort((a, b) => a.start - b.start);
  const speakers = channels.map((channel, index) => ({
    label: speakerLabel(index),
    duration: round(totalSeconds(mergeRegions(channel.vad))),
  }));
  const [main, other] = totalSeconds(mergeRegions(left.vad)) >= totalSeconds(mergeRegions(right.vad)) ? [left, right] : [right, left];
  return {
    source: { length: Math.max(left.source.length, right.source.length), format: left.source.format },
    segments,
    vad: mergeRegions([...left.vad, ...right.vad]).map((region) => ({ start: region.start, end: region.end })),
    language: main.language ?? other.language,
    languages: uniqueByCode([...main.languages, ...other.languages]),
    speakers,
  };
}

function uniqueByCode(languages: readonly DetectedLanguage[]): DetectedLanguage[] {
  const seen = new Set<string>();
  return languages.filter((language) => !seen.has(language.code) && seen.add(language.code));
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
