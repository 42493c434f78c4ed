import { diarizeRecording } from './diarize/diarize-recording.ts';
import type { SpeakerTurn } from './diarize/speaker-turn.ts';
import { resolveRecognitionProfile } from './recognize/recognition-profile.ts';
import type { VadInterval } from '../contract/output/transcript-model.ts';
import type { Domain } from '../contract/validation/prediction-input.ts';

/** Below this much speech, `auto` diarization labels everything as one speaker (too little to cluster). */
const MIN_DIARIZED_SPEECH_SECONDS = 10;

/**
 * The most speakers the diarizers are asked to separate in one recording. Both cluster one voice
 * embedding per window of about 1.5 s; past a few dozen clusters they split voices rather than find
 * new ones, and spec 8 sets no upper bound, so a larger `speakers` is lowered to this.
 */
export const MAX_SEPARABLE_SPEAKERS = 32;

/** Speech a speaker needs, seconds, to be told apart: about one embedding window plus context. */
export const MIN_SPEECH_SECONDS_PER_SPEAKER = 2;

/**
 * How many speakers the diarizer can separate in a recording with `speechSeconds` of speech:
 * {@link MAX_SEPARABLE_SPEAKERS} at most, and one per {@link MIN_SPEECH_SECONDS_PER_SPEAKER}
 * seconds of speech, at least 1.
 */
export function separableSpeakers(speechSeconds: number): number {
  return Math.max(1, Math.min(MAX_SEPARABLE_SPEAKERS, Math.floor(speechSeconds / MIN_SPEECH_SECONDS_PER_SPEAKER)));
}

export interface StartDiarizationInput {
  /** 16 kHz mono 16-bit WAV file (pipeline/decode/decode-to-pcm.ts). */
  wavPath: string;
  /** The VAD intervals of the recording, seconds. */
  speech: readonly VadInterval[];
  /** Quiet speech found by the same VAD pass (detectSpeechLevels), which the built-in diarizer labels too; absent: none. */
  quietSpeech?: readonly VadInterval[];
  /** Spec 2.2 `speakers`, or null to estimate the count. */
  speakers: number | null;
  /** Spec 2.2 `domain` (its profile says whether short recordings are diarized). */
  domain: Domain | null;
  /** MODELS_DIR (diarize-recording.ts chooses sherpa-onnx when its models are there). */
  modelsDir: string | null;
  signal?: AbortSignal;
  /** Where a lowered `speakers` and the diarizer chosen are reported (the prediction's logs). */
  log?: (line: string) => void;
}

/** A diarization running alongside recognition. */
export interface DiarizationRun {
  /** The speaker turns, or diarizeRecording's error; never an unhandled rejection if not awaited. */
  turns: Promise<SpeakerTurn[]>;
  /** Stops the diarizer when its result is no longer wanted (recognition failed or found no words); harmless once done. */
  cancel(): void;
}

/**
 * Starts diarizing as soon as VAD has the speech intervals, so it runs while the engine recognises
 * (it then adds little to the end-to-end time): the built-in diarizer works in slices on this thread
 * and leaves the event loop free, sherpa-onnx runs in a child process. `speakers` null with under
 * 10 s of speech under an `auto` profile means one speaker (nothing to cluster). A `speakers` above
 * {@link separableSpeakers} of the recording is lowered to it, and `log` says so. Stops with
 * `signal`.
 * @returns the run; awaiting `turns` throws what diarizeRecording throws (AppError
 *   `engine_unavailable`, `media_unreadable`, `recognition_failed`; `signal.reason` when aborted).
 */
export function startDiarization(input: StartDiarizationInput): DiarizationRun {
  const own = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, own.signal]) : own.signal;
  const speechSeconds = input.speech.reduce((sum, v) => sum + v.end - v.start, 0);
  const tooShort = resolveRecognitionProfile(input.domain).diarization === 'auto' && speechSeconds < MIN_DIARIZED_SPEECH_SECONDS;
  const separable = separableSpeakers(speechSeconds);
  if (input.speakers !== null && input.speakers > separable) {
    input.log?.(
      `speakers is ${input.speakers}, more than the diarizer can separate in ${speechSeconds.toFixed(1)} s of speech (at most ${MAX_SEPARABLE_SPEAKERS}, and one per ${MIN_SPEECH_SECONDS_PER_SPEAKER} s of speech): looking for at most ${separable}`,
    );
  }
  const speakers = input.speakers === null ? (tooShort ? 1 : null) : Math.min(input.speakers, separable);
  const turns = diarizeRecording({
    wavPath: input.wavPath,
    speech: input.speech,
    speakers,
    modelsDir: input.modelsDir,
    signal,
    ...(input.log ? { log: input.log } : {}),
    ...(input.quietSpeech ? { quietSpeech: input.quietSpeech } : {}),
  });
  turns.catch(() => {}); // the caller awaits it after recognition, or cancels it
  return { turns, cancel: () => own.abort(new Error('Diarization no longer needed.')) };
}
