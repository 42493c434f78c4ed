/** One stretch of time in which one speaker talks. Times in seconds from the start of the recording. */
export interface SpeakerTurn {
  /** Seconds from the start of the recording. */
  start: number;
  /** Seconds from the start of the recording; `end > start`. */
  end: number;
  /** Speaker label, e.g. `SPEAKER_1` (ours) or `speaker90` (an RTTM reference). */
  speaker: string;
}

/** A region of time, in seconds (UEM scored regions, speech intervals). */
export interface TimeRegion {
  start: number;
  end: number;
}

/** The label of the `index`-th speaker (0-based) in order of first appearance: `SPEAKER_1`, `SPEAKER_2`, … */
export function speakerLabel(index: number): string {
  return `SPEAKER_${index + 1}`;
}

/**
 * Renames the speakers of `turns` to `SPEAKER_1`, `SPEAKER_2`, … in order of first appearance
 * (earliest start; ties by earlier end), sorts the turns by start and merges touching or
 * overlapping turns of the same speaker.
 * @returns new turns; the input is not changed.
 */
export function numberSpeakersByFirstAppearance(turns: readonly SpeakerTurn[]): SpeakerTurn[] {
  const sorted = turns.filter((turn) => turn.end > turn.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const labels = new Map<string, string>();
  const merged: SpeakerTurn[] = [];
  const lastOf = new Map<string, SpeakerTurn>();
  for (const turn of sorted) {
    if (!labels.has(turn.speaker)) labels.set(turn.speaker, speakerLabel(labels.size));
    const speaker = labels.get(turn.speaker)!;
    const last = lastOf.get(speaker);
    if (last !== undefined && turn.start <= last.end) {
      last.end = Math.max(last.end, turn.end);
      continue;
    }
    const copy = { start: turn.start, end: turn.end, speaker };
    merged.push(copy);
    lastOf.set(speaker, copy);
  }
  return merged;
}
