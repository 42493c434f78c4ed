import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';

/**
 * Where each speaker of a transcript speaks: per label, its segments' spans cut to the speech the
 * transcript's voice-activity detection found (`vad`; the spans whole when there is none), in time
 * order, touching regions merged. Labels come in order of first appearance; segments without a
 * speaker are left out.
 * @returns label → regions in seconds (a label whose spans hold no detected speech has none).
 */
export function speakerSpeechRegions(transcript: Pick<Transcript, 'segments' | 'vad'>): Map<string, TimeRegion[]> {
  const regions = new Map<string, TimeRegion[]>();
  const speech = [...transcript.vad].sort((a, b) => a.start - b.start);
  for (const segment of transcript.segments) {
    if (segment.speaker === null || segment.end <= segment.start) continue;
    const list = regions.get(segment.speaker) ?? [];
    regions.set(segment.speaker, list);
    const parts =
      speech.length === 0
        ? [{ start: segment.start, end: segment.end }]
        : speech
            .map((interval) => ({ start: Math.max(interval.start, segment.start), end: Math.min(interval.end, segment.end) }))
            .filter((part) => part.end > part.start);
    list.push(...parts);
  }
  for (const [label, list] of regions) regions.set(label, mergeRegions(list));
  return regions;
}

/** Total seconds of `regions`. */
export function regionSeconds(regions: readonly TimeRegion[]): number {
  return regions.reduce((sum, region) => sum + (region.end - region.start), 0);
}

function mergeRegions(list: readonly TimeRegion[]): TimeRegion[] {
  const merged: TimeRegion[] = [];
  for (const region of [...list].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && region.start <= last.end + 1e-6) last.end = Math.max(last.end, region.end);
    else merged.push({ ...region });
  }
  return merged;
}
