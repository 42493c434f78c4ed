import type { Transcript, TranscriptSegment, TranscriptWord } from '../../contract/output/transcript-model.ts';
import { speakerLabel, type SpeakerTurn } from './speaker-turn.ts';
import { mergeRegions, totalSeconds } from './time-regions.ts';

/**
 * Labels every segment of `transcript` with the speaker of `turns` (diarizeRecording) it overlaps most.
 * A segment with words is split where the speaker changes between its words (each word goes to the turn it
 * overlaps most, or the nearest turn); the pieces keep the segment's language, their text is their words
 * joined by spaces, and the first and last piece keep the segment's start and end. Labels are then
 * renumbered `SPEAKER_1`, `SPEAKER_2`, … by first appearance in the segments (docs/formats.md), and
 * `speakers` lists each label with its talk time (seconds of its turns) in that order.
 * @param names the name a turn label takes instead of its `SPEAKER_n` (known voices, pipeline/voices/):
 *   the others keep the `SPEAKER_n` of their place in that order.
 * @returns a new transcript; with no turns, segments keep `speaker: null` and `speakers` is [].
 */
export function assignSpeakers(transcript: Transcript, turns: readonly SpeakerTurn[], names?: ReadonlyMap<string, string>): Transcript {
  if (turns.length === 0) return transcript;
  const sorted = [...turns].sort((a, b) => a.start - b.start);
  const labelled = transcript.segments.flatMap((segment) => splitBySpeaker(segment, sorted));
  const renamed = new Map<string, string>();
  for (const segment of labelled) if (!renamed.has(segment.speaker!)) renamed.set(segment.speaker!, speakerLabel(renamed.size));
  for (const [original, label] of renamed) renamed.set(original, names?.get(original) ?? label);
  const segments = labelled.map((segment) => ({ ...segment, speaker: renamed.get(segment.speaker!)! }));
  const speakers = [...renamed].map(([original, label]) => ({
    label,
    duration: round(totalSeconds(mergeRegions(sorted.filter((turn) => turn.speaker === original)))),
  }));
  return { ...transcript, segments, speakers };
}

function splitBySpeaker(segment: TranscriptSegment, turns: readonly SpeakerTurn[]): TranscriptSegment[] {
  if (segment.words.length === 0) return [{ ...segment, speaker: speakerAt(segment.start, segment.end, turns) }];
  const runs: { speaker: string; words: TranscriptWord[] }[] = [];
  for (const word of segment.words) {
    const speaker = speakerAt(word.start, word.end, turns);
    const last = runs.at(-1);
    if (last !== undefined && last.speaker === speaker) last.words.push(word);
    else runs.push({ speaker, words: [word] });
  }
  if (runs.length === 1) return [{ ...segment, speaker: runs[0]!.speaker }];
  return runs.map((run, index) => ({
    ...segment,
    start: index === 0 ? segment.start : run.words[0]!.start,
    end: index === runs.length - 1 ? segment.end : run.words.at(-1)!.end,
    text: run.words.map((word) => word.text).join(' '),
    speaker: run.speaker,
    words: run.words,
  }));
}

/**
 * The speaker of the turn overlapping [start, end] most; without overlap, of the nearest turn (ties: the
 * earlier turn). `min(end) - max(start)` is the overlap when positive and minus the gap otherwise, so one
 * maximum finds both. `turns` sorted by start; O(turns) per call.
 */
function speakerAt(start: number, end: number, turns: readonly SpeakerTurn[]): string {
  let [best, bestScore] = [turns[0]!.speaker, -Infinity];
  for (const turn of turns) {
    if (turn.start - end > Math.max(0, -bestScore)) break;
    const score = Math.min(end, turn.end) - Math.max(start, turn.start);
    if (score > bestScore) [best, bestScore] = [turn.speaker, score];
  }
  return best;
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
