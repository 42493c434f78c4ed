/** Rate of the decoder's output (16 kHz), frames per second: the cutter's times are counted in it. */
const FRAMES_PER_SECOND = 16000;
/** Frames judged at once (10 ms): a stretch of silence starts and ends on these steps. */
const BLOCK_FRAMES = 160;

/**
 * How far a sample may stray from the first sample of a stretch (per channel, in 16-bit steps) and the
 * stretch still count as silence: ±8 is −72 dBFS, below any speech an engine can hear, above the ±1–2
 * steps of dither. Measured from the stretch's own first value, so a constant offset (a DC level, or the
 * constant a 1 Hz file resamples to) is silence too, and the two ends that are joined differ by at most
 * 16 steps (no click where the middle was left out).
 */
export const SILENCE_TOLERANCE = 8;
/** A silence shorter than this, seconds, is kept whole: only a stretch of at least 30 s is cut. */
export const MIN_CUT_SECONDS = 30;
/**
 * Of a silence that is cut, this much is kept at each end, seconds: 6 s of silence remain where it was,
 * longer than every gap the later stages compare against (VAD's 0.3–0.6 s ending silence, diarization's
 * 0.58 s pauses and 0.3 s spans, the remote engine's 5 s pause that ends a request), so the speech on
 * both sides is judged as it would be across the whole gap.
 */
export const KEPT_SILENCE_SECONDS = 3;

/** One stretch of silence left out of the decoded audio. */
export interface SilenceCut {
  /** Where it was left out, seconds from the start of the cut audio (the end of the kept head of silence). */
  at: number;
  /** Seconds of the source left out there. */
  dropped: number;
}

/** Streams interleaved 16-bit PCM and hands back what to keep (createSilenceCutter). */
export interface SilenceCutter {
  /**
   * Takes the next bytes of raw little-endian signed 16-bit frames (any split, even mid-sample) and
   * returns the frames to write, interleaved, in order. The arrays stay valid: the cutter never reuses them.
   */
  push(bytes: Uint8Array): Int16Array[];
  /** Ends the stream (a last partial frame is dropped): returns what is still to write. */
  end(): Int16Array[];
  /** Frames read so far: the source's length in 1/16000 s. */
  readonly framesIn: number;
  /** Frames handed back so far: the cut audio's length in 1/16000 s. */
  readonly framesOut: number;
  /**
   * Frames read so far that lie in no silence (of any length): 0 for a recording that is silence from
   * start to end. Without `enabled`, framesIn (nothing is judged).
   */
  readonly soundFrames: number;
  /** The stretches left out so far, in order. */
  readonly cuts: readonly SilenceCut[];
}

/** Parameters of the cutter; the defaults are the service's. Tests shrink them. */
export interface SilenceCutterOptions {
  /** false: every frame is kept (the cutter only counts). Default true. */
  enabled?: boolean;
  /** MIN_CUT_SECONDS. */
  minCutSeconds?: number;
  /** KEPT_SILENCE_SECONDS; at most half of minCutSeconds. */
  keptSeconds?: number;
  /** SILENCE_TOLERANCE. */
  tolerance?: number;
}

/**
 * A streaming cutter of long silences in decoded 16 kHz 16-bit PCM of `channels` interleaved channels.
 * Silence is a stretch of whole 10 ms blocks in which every sample of every channel stays within
 * `tolerance` of that channel's value at the stretch's first frame. A silence of at least `minCutSeconds`
 * keeps its first and last `keptSeconds`; the middle is left out and recorded as a SilenceCut, so that
 * times in the cut audio can be turned back into the source's (mapToSourceSeconds). Anything else passes
 * unchanged: a recording without such a silence comes out frame for frame as it went in.
 * Why: digital silence costs nothing to store compressed (23 h of silent stereo FLAC at 1 Hz is 16 kB)
 * but 115 MB per hour and channel once decoded to 16 kHz PCM, and every later stage (VAD above all)
 * reads it all; cut, such a file decodes to a few seconds. What is written is then bounded by the
 * recording's sound plus 6 s per cut silence (at most a fifth of the silence), not by its stated length.
 * Memory: the chunk in hand, plus up to `minCutSeconds` of the current silence before it qualifies
 * (30 s of stereo: 1.9 MB).
 * @throws RangeError for a channel count outside 1–8 or inconsistent options.
 */
export function createSilenceCutter(channels: number, options: SilenceCutterOptions = {}): SilenceCutter {
  if (!Number.isInteger(channels) || channels < 1 || channels > 8) throw new RangeError('channels must be 1 to 8');
  const enabled = options.enabled ?? true;
  const tolerance = options.tolerance ?? SILENCE_TOLERANCE;
  const minFrames = Math.round((options.minCutSeconds ?? MIN_CUT_SECONDS) * FRAMES_PER_SECOND);
  const keptFrames = Math.round((options.keptSeconds ?? KEPT_SILENCE_SECONDS) * FRAMES_PER_SECOND);
  if (!(keptFrames >= 0 && 2 * keptFrames <= minFrames)) throw new RangeError('keptSeconds must be at most half of minCutSeconds');
  const blockBytes = BLOCK_FRAMES * channels * 2;
  const frameBytes = channels * 2;
  let carry: Uint8Array = new Uint8Array(0);
  let framesIn = 0;
  let framesOut = 0;
  let soundFrames = 0;
  const cuts: SilenceCut[] = [];
  // The silence being read, if any.
  let inRun = false;
  const reference = new Int16Array(channels);
  let runFrames = 0;
  let headLeft = 0; // frames of the run still to hand back as its kept head
  let tail: Int16Array[] = []; // the run after its head: all of it until it qualifies, then its last keptFrames
  let tailFrames = 0;
  let dropped = 0;
  let out: Int16Array[] = [];

  const emit = (frames: Int16Array): void => {
    if (frames.length === 0) return;
    out.push(frames);
    framesOut += frames.length / channels;
  };

  const stays = (samples: Int16Array, from: number, to: number): boolean => {
    for (let i = from; i < to; i += channels)
      for (let c = 0; c < channels; c += 1) {
        const d = samples[i + c]! - reference[c]!;
        if (d > tolerance || d < -tolerance) return false;
      }
    return true;
  };

  const extendRun = (view: Int16Array): void => {
    let frames = view.length / channels;
    runFrames += frames;
    if (headLeft > 0) {
      const head = Math.min(headLeft, frames);
      emit(view.subarray(0, head * channels));
      headLeft -= head;
      view = view.subarray(head * channels);
      frames -= head;
    }
    if (frames > 0) {
      const last = tail[tail.length - 1];
      if (last && last.buffer === view.buffer && last.byteOffset + last.byteLength === view.byteOffset)
        tail[tail.length - 1] = new Int16Array(view.buffer, last.byteOffset, last.length + view.length);
      else tail.push(view);
      tailFrames += frames;
    }
    if (runFrames < minFrames) return;
    while (tailFrames > keptFrames) {
      const first = tail[0]!;
      const excess = tailFrames - keptFrames;
      const length = first.length / channels;
      if (length <= excess) {
        tail.shift();
        tailFrames -= length;
        dropped += length;
      } else {
        tail[0] = first.subarray(excess * channels);
        tailFrames -= excess;
        dropped += excess;
      }
    }
  };

  const closeRun = (): void => {
    if (dropped > 0) cuts.push({ at: framesOut / FRAMES_PER_SECOND, dropped: dropped / FRAMES_PER_SECOND });
    for (const view of tail) emit(view);
    inRun = false;
    tail = [];
    tailFrames = 0;
    dropped = 0;
  };

  const emitSound = (sound: Int16Array): void => {
    soundFrames += sound.length / channels;
    emit(sound);
  };

  /** Judges `samples` (whole frames) block by block; contiguous sound is handed back as one view. */
  const take = (samples: Int16Array): void => {
    framesIn += samples.length / channels;
    if (!enabled) {
      emitSound(samples);
      return;
    }
    let soundFrom = -1; // sample index where the sound not yet handed back starts
    for (let from = 0; from < samples.length; from += BLOCK_FRAMES * channels) {
      const to = Math.min(samples.length, from + BLOCK_FRAMES * channels);
      if (inRun && stays(samples, from, to)) {
        extendRun(samples.subarray(from, to));
        continue;
      }
      if (inRun) closeRun();
      for (let c = 0; c < channels; c += 1) reference[c] = samples[from + c]!;
      if (stays(samples, from, to)) {
        if (soundFrom >= 0) emitSound(samples.subarray(soundFrom, from));
        soundFrom = -1;
        inRun = true;
        runFrames = 0;
        headLeft = keptFrames;
        extendRun(samples.subarray(from, to));
      } else if (soundFrom < 0) soundFrom = from;
    }
    if (soundFrom >= 0) emitSound(samples.subarray(soundFrom));
  };

  const collect = (): Int16Array[] => {
    const frames = out;
    out = [];
    return frames;
  };

  return {
    push(bytes) {
      const total = carry.length + bytes.length;
      const usable = total - (total % blockBytes);
      if (usable === 0) {
        const joined = new Uint8Array(total);
        joined.set(carry);
        joined.set(bytes, carry.length);
        carry = joined;
        return [];
      }
      const samples = new Int16Array(usable / 2); // aligned, and owned: views of it can be kept
      const view = new Uint8Array(samples.buffer);
      view.set(carry);
      view.set(bytes.subarray(0, usable - carry.length), carry.length);
      carry = bytes.slice(usable - carry.length);
      take(samples);
      return collect();
    },
    end() {
      const whole = carry.length - (carry.length % frameBytes);
      if (whole > 0) {
        const samples = new Int16Array(whole / 2);
        new Uint8Array(samples.buffer).set(carry.subarray(0, whole));
        take(samples);
      }
      carry = new Uint8Array(0);
      if (inRun) closeRun();
      return collect();
    },
    get framesIn() {
      return framesIn;
    },
    get framesOut() {
      return framesOut;
    },
    get soundFrames() {
      return soundFrames;
    },
    cuts,
  };
}

/**
 * The map from times in cut audio back to the source's: `seconds` plus everything left out before it
 * (a time exactly at a cut is taken as after it). Binary search: O(log cuts) per time.
 * @param cuts the cutter's cuts, in order.
 * @returns a function of seconds in the cut audio (≥ 0) giving seconds in the source.
 */
export function mapToSourceSeconds(cuts: readonly SilenceCut[]): (seconds: number) => number {
  const shifts: number[] = [];
  let shift = 0;
  for (const cut of cuts) shifts.push((shift += cut.dropped));
  return (seconds) => {
    let low = 0;
    let high = cuts.length; // the first cut after `seconds`
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cuts[middle]!.at <= seconds) low = middle + 1;
      else high = middle;
    }
    return seconds + (low === 0 ? 0 : shifts[low - 1]!);
  };
}
