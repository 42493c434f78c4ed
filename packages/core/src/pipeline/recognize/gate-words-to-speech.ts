import type { VadInterval } from '../../contract/output/transcript-model.ts';
import type { RecognizedSegment } from './recognition-engine.ts';

/**
 * Keeps only the recognised words whose time overlaps a VAD speech interval, so an engine cannot
 * put text where voice-activity detection heard none (the known failure of recognisers inventing
 * words on silence, noise and music). A segment without word times is kept whole when its own
 * time overlaps speech. Segments left without words are dropped; the others get their start, end
 * and text (words joined with spaces) recomputed.
 * @param segments times in seconds.
 * @param speech sorted, non-overlapping intervals in seconds.
 */
export function gateWordsToSpeech(segments: readonly RecognizedSegment[], speech: readonly VadInterval[]): RecognizedSegment[] {
  const gated: RecognizedSegment[] = [];
  for (const segment of segments) {
    if (segment.words.length === 0) {
      if (overlapsSpeech(segment.start, segment.end, speech)) gated.push(segment);
      continue;
    }
    const words = segment.words.filter((word) => overlapsSpeech(word.start, word.end, speech));
    const first = words[0];
    const last = words.at(-1);
    if (!first || !last) continue;
    gated.push({
      ...segment,
      start: first.start,
      end: last.end,
      text: words === segment.words ? segment.text : words.map((word) => word.text).join(' '),
      words,
    });
  }
  return gated;
}

/**
 * True when [start, end] (seconds) shares time with an interval of `speech` (sorted, non-overlapping).
 * A zero-length span counts when it lies inside an interval. Binary search: O(log n).
 */
export function overlapsSpeech(start: number, end: number, speech: readonly VadInterval[]): boolean {
  let low = 0;
  let high = speech.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const interval = speech[middle]!;
    if (interval.end <= start && !(interval.end === start && end === start)) low = middle + 1;
    else if (interval.start >= end && !(interval.start === end && end === start)) high = middle - 1;
    else return true;
  }
  return false;
}
