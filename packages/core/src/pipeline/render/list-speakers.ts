import type { TranscriptSegment } from '../../contract/output/transcript-model.ts';

/**
 * The distinct speaker labels of `segments` (e.g. `['SPEAKER_1', 'SPEAKER_2']`) in order of
 * first appearance; segments without a speaker (null, diarization did not run) are skipped.
 * Used to decide whether cues carry a speaker prefix (more than one label, docs/formats.md).
 */
export function listSpeakers(segments: readonly TranscriptSegment[]): string[] {
  const seen = new Set<string>();
  for (const segment of segments) {
    if (segment.speaker !== null) seen.add(segment.speaker);
  }
  return [...seen];
}
