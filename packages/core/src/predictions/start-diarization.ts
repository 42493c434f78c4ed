import { diarizeRecording } from '../diarization/diarize-recording.ts';
import type { SpeakerTurn } from '../diarization/speaker-turn.ts';
import { resolveRecognitionProfile } from '../recognition/recognition-profile.ts';
import type { VadInterval } from '../transcript/transcript-model.ts';
import type { Domain } from '../validation/prediction-input.ts';

/** Below this much speech, `auto` diarization labels everything as one speaker (too little to cluster). */
const MIN_DIARIZED_SPEECH_SECONDS = 10;

export interface StartDiarizationInput {
  /** 16 kHz mono 16-bit WAV file (media/decode-to-pcm.ts). */
  wavPath: string;
  /** The VAD intervals of the recording, seconds. */
  speech: readonly VadInterval[];
  /** Spec 2.2 `speakers`, or null to estimate the count. */
  speakers: number | null;
  /** Spec 2.2 `domain` (its profile says whether short recordings are diarized). */
  domain: Domain | null;
  /** MODELS_DIR (diarize-recording.ts chooses sherpa-onnx when its models are there). */
  modelsDir: string | null;
  signal?: AbortSignal;
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
 * (issue 10): the built-in diarizer works in slices on this thread and leaves the event loop free,
 * sherpa-onnx runs in a child process. `speakers` null with under 10 s of speech under an `auto`
 * profile means one speaker (nothing to cluster). Stops with `signal`.
 * @returns the run; awaiting `turns` throws what diarizeRecording throws (AppError
 *   `engine_unavailable`, `media_unreadable`, `recognition_failed`; `signal.reason` when aborted).
 */
export function startDiarization(input: StartDiarizationInput): DiarizationRun {
  const own = new AbortController();
  const signal = input.signal ? AbortSignal.any([input.signal, own.signal]) : own.signal;
  const speechSeconds = input.speech.reduce((sum, v) => sum + v.end - v.start, 0);
  const tooShort = resolveRecognitionProfile(input.domain).diarization === 'auto' && speechSeconds < MIN_DIARIZED_SPEECH_SECONDS;
  const speakers = input.speakers ?? (tooShort ? 1 : null);
  const turns = diarizeRecording({ wavPath: input.wavPath, speech: input.speech, speakers, modelsDir: input.modelsDir, signal });
  turns.catch(() => {}); // the caller awaits it after recognition, or cancels it
  return { turns, cancel: () => own.abort(new Error('Diarization no longer needed.')) };
}
