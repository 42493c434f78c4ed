import { mapToSourceSeconds, type SilenceCut } from './decode/cut-long-silences.ts';
import type { Transcript } from '../contract/output/transcript-model.ts';

/**
 * A transcript made from decoded audio whose long silences were left out (decodeToPcm `cutSilences`)
 * with every time put back on the source's clock: segment and word starts and ends and the VAD
 * intervals move later by the silence cut before them (mapToSourceSeconds, times rounded to the ms as
 * everywhere), and `source.length` becomes the source's length. Speaker and language durations stay: they
 * count speech, and no speech was cut.
 * @param cuts the decode's cuts (seconds); none: only `source.length` is set.
 * @param sourceSeconds length of the decoded recording, silences included (DecodedPcm.sourceSeconds).
 * @returns a new transcript; the argument is not changed.
 */
export function restoreSourceTimes(transcript: Transcript, cuts: readonly SilenceCut[], sourceSeconds: number): Transcript {
  const source = { ...transcript.source, length: sourceSeconds };
  if (cuts.length === 0) return { ...transcript, source };
  const toSource = mapToSourceSeconds(cuts);
  const at = (seconds: number): number => Math.round(toSource(seconds) * 1000) / 1000;
  return {
    ...transcript,
    source,
    segments: transcript.segments.map((segment) => ({
      ...segment,
      start: at(segment.start),
      end: at(segment.end),
      words: segment.words.map((word) => ({ ...word, start: at(word.start), end: at(word.end) })),
    })),
    vad: transcript.vad.map((interval) => ({ start: at(interval.start), end: at(interval.end) })),
  };
}
