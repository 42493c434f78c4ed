import { numberSpeakersByFirstAppearance, type SpeakerTurn, type TimeRegion } from './speaker-turn.ts';

/**
 * Turns from per-frame speaker indices: inside each speech region, a run of frames of one speaker is one
 * turn; turns meet halfway between the last frame of one speaker and the first of the next; the first and
 * last turns of a region reach its edges. A region without frames (under 32 ms) goes to the speaker of
 * the frame nearest in time.
 * @param times frame centres in seconds (sorted); `regions[i]` = index in `speech` of frame i; `labels[i]` its speaker.
 * @returns turns with labels `SPEAKER_1`, … numbered by first appearance; [] when `speech` is empty.
 */
export function framesToTurns(speech: readonly TimeRegion[], times: Float64Array, regions: Uint32Array, labels: Int32Array): SpeakerTurn[] {
  const turns: SpeakerTurn[] = [];
  let i = 0;
  speech.forEach((region, index) => {
    if (i >= times.length || regions[i] !== index) {
      turns.push({ ...region, speaker: String(labels[nearestFrame(times, (region.start + region.end) / 2)] ?? 0) });
      return;
    }
    let start = region.start;
    for (; i < times.length && regions[i] === index; i += 1) {
      const last = i + 1 >= times.length || regions[i + 1] !== index;
      if (!last && labels[i + 1] === labels[i]) continue;
      const end = last ? region.end : (times[i]! + times[i + 1]!) / 2;
      turns.push({ start, end, speaker: String(labels[i]) });
      start = end;
    }
  });
  return numberSpeakersByFirstAppearance(turns.map((turn) => ({ ...turn, start: round(turn.start), end: round(turn.end) })));
}

function nearestFrame(times: Float64Array, at: number): number {
  let [low, high] = [0, times.length - 1];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low > 0 && Math.abs(times[low - 1]! - at) < Math.abs(times[low]! - at) ? low - 1 : low;
}

/** Milliseconds are enough for speaker turns. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
