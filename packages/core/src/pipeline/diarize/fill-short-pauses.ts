import type { SpeakerTurn } from './speaker-turn.ts';

/**
 * pyannote/speaker-diarization 2.1's `min_duration_off` (0.5817 s, its hyper-parameters optimised on
 * AMI, DIHARD and VoxConverse): a speaker's pauses shorter than this are filled.
 */
export const MIN_PAUSE_SECONDS = 0.58;

/**
 * Fills a pause between two consecutive turns of the same speaker (no other turn in between) when it is
 * shorter than `maxPauseSeconds`, as pyannote.audio's `min_duration_off` does for each speaker
 * (pyannote.audio `Binarize`, "fill within-speaker gaps shorter than min_duration_off").
 * @param turns sorted by start, not overlapping (framesToTurns); seconds.
 * @returns new turns, sorted; the input is not changed.
 */
export function fillShortPauses(turns: readonly SpeakerTurn[], maxPauseSeconds = MIN_PAUSE_SECONDS): SpeakerTurn[] {
  const filled: SpeakerTurn[] = [];
  for (const turn of turns) {
    const last = filled.at(-1);
    if (last !== undefined && last.speaker === turn.speaker && turn.start - last.end < maxPauseSeconds)
      last.end = Math.max(last.end, turn.end);
    else filled.push({ ...turn });
  }
  return filled;
}
